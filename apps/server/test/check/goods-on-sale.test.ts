import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ErrorCode } from '@kyfw/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLibraryImport } from '../../src/cli/library-import.ts';
import {
  buildCheckApp,
  type CheckTestApp,
  createdBy,
  goodsById,
  newUser,
  seedLibrary,
  upload,
} from './check-helper.ts';
import { buildDocx, buildThesis, libraryText } from './fixtures.ts';

// A goods whose collections are empty is not sold as if they were not (issue 12): 硕博 compares with
// the thesis collection besides what 本科 compares with; while that collection holds no document it
// cannot be ordered (its card says why, the upload is refused and nothing is created), and it is on
// sale again once theses are imported (`npm run library:import -- --collection thesis`).

let t: CheckTestApp;
let user: { token: string; userId: string };
const tmp = mkdtempSync(path.join(os.tmpdir(), 'kyfw-goods-on-sale-'));
const paper = buildThesis({ seed: 81, chars: 3000 });

beforeAll(async () => {
  t = await buildCheckApp();
  user = await newUser(t);
  await seedLibrary(t, [
    { id: 'j:1', title: '期刊论文', collection: 'journal', text: libraryText(811, 1500) },
  ]);
});
afterAll(async () => {
  await t.close();
  rmSync(tmp, { recursive: true, force: true });
});

const goodsList = () => goodsById(t, user.token);

const counts = () => createdBy(t, user.userId);

describe('goods whose collections are empty are not sold', () => {
  it('硕博 is unavailable while the thesis collection is empty: the card says why, the upload is refused, nothing is created', async () => {
    const goods = await goodsList();
    expect(goods.get('check_master')).toMatchObject({
      available: false,
      unavailableReason: '硕博学位论文查重须比对学位论文库，该库暂无收录，暂不可下单，请选择其他检测类型',
    });
    // The goods whose collections hold documents, and AIGC detection (no library), are on sale.
    for (const id of ['check_undergrad', 'check_journal', 'aigc_detection_standard']) {
      expect(goods.get(id), id).toMatchObject({ available: true, unavailableReason: null });
    }

    const before = await counts();
    const res = await upload(
      t,
      user.token,
      { bytes: buildDocx(paper.blocks), name: 'p.docx' },
      { goodsId: 'check_master' },
    );
    expect(res.code).toBe(ErrorCode.VALIDATION);
    expect(res.message).toBe(goods.get('check_master')?.unavailableReason);
    expect(await counts()).toEqual(before);
  });

  it('after theses are imported into the thesis collection, 硕博 is on sale and the upload creates its order', async () => {
    const file = path.join(tmp, 'theses.jsonl');
    writeFileSync(
      file,
      `${JSON.stringify({ id: 1, title: '某硕士学位论文', text: libraryText(812, 1500) })}\n`,
    );
    await runLibraryImport({ input: file, collection: 'thesis' }, t.config, () => {});

    expect((await goodsList()).get('check_master')).toMatchObject({
      available: true,
      unavailableReason: null,
    });
    const before = await counts();
    const res = await upload(
      t,
      user.token,
      { bytes: buildDocx(paper.blocks), name: 'p.docx' },
      { goodsId: 'check_master' },
    );
    expect(res.code).toBe(0);
    expect(res.data).toMatchObject({ free: false });
    const order = await t.db
      .selectFrom('orders')
      .select(['goods_id', 'status'])
      .where('id', '=', res.data.orderId)
      .executeTakeFirstOrThrow();
    expect(order).toMatchObject({ goods_id: 'check_master', status: 'pending_payment' });
    expect((await counts()).orders).toBe(before.orders + 1);
  });
});
