import { pageRoutes } from '@kyfw/contracts';
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { paths } from '../config/paths';
import { aiWritingAreas, services } from '../config/services';
import { routes } from './router';

/** Every path the router serves, as a full pattern (`/user/order/check`, `/admin/*`), by route id. */
function routerPaths(list: RouteObject[], parent = ''): Map<string, string> {
  const found = new Map<string, string>();
  for (const route of list) {
    const full = route.path ? `${parent}/${route.path}`.replace(/\/+/g, '/') : parent;
    // The not-found route is the router's own "everything else", not a page.
    if (route.id !== 'notFound' && (route.path || route.index) && route.id) found.set(route.id, full || '/');
    if (route.children) for (const [id, path] of routerPaths(route.children, full)) found.set(id, path);
  }
  return found;
}

describe('the shared page list (packages/contracts/src/routes.ts) and the web router', () => {
  const served = routerPaths(routes);

  it('agree on every path: a page added to one and not the other fails here', () => {
    expect(new Set(pageRoutes.map((r) => r.path))).toEqual(new Set(served.values()));
  });

  it('name each page as the router’s route id', () => {
    for (const route of pageRoutes) expect(served.get(route.name), route.name).toBe(route.path);
  });

  it('agree with the links the app uses (config/paths.ts)', () => {
    for (const [name, path] of Object.entries(paths)) {
      const route = pageRoutes.find((r) => r.name === name);
      expect(route?.path.replace(/\/\*$/, ''), name).toBe(path);
    }
  });

  it('give a service page the title the page itself shows', () => {
    for (const service of [...Object.values(services), ...aiWritingAreas]) {
      const route = pageRoutes.find((r) => r.name === service.route);
      const title = 'title' in service ? service.title : `AI${service.name}写作`;
      expect(route?.title, service.route).toBe(title);
    }
  });

  it('keep the account area and the console out of search engines', () => {
    const open = pageRoutes.filter((r) => r.indexable).map((r) => r.path);
    expect(open.filter((p) => /^\/(user|admin|login|register|logout)(\/|$)/.test(p))).toEqual([]);
  });
});
