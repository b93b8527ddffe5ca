import { ok } from '@kyfw/contracts';
import type { AppModule } from '../types.ts';
import { createHomeService } from './home.service.ts';

/** Public home data: GET /home/homeInfo (spec §7) — footer web info and friend links. */
export const homeModule: AppModule = {
  name: 'home',
  register(app, { db }) {
    const home = createHomeService({ db });
    app.get('/home/homeInfo', async () => ok(await home.getHomeInfo()));
  },
};
