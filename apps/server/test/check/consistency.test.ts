// The check pages agree with each other and with the orders pages: an expired order reads the same
// everywhere, a check whose order was deleted is gone everywhere, and /payFee on a paid check says
// why it is not free.
import { ErrorCode } from '@kyfw/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE } from '../orders/orders-helper.ts';
import { importSmallLibrary } from '../small-library.ts';
import {
  buildCheckApp,
  type CheckTestApp,
  call,
  checkStatus,
  getReport,
  newUser,
  payCheckOrder,
  runCheckJobs,
  upload,
} from './check-helper.ts';
import { buildTxt } from './fixtures.ts';

let t: CheckTestApp;
let user: { token: string; userId: string };
const paper = () => ({ bytes: buildTxt('城市交通治理与公共政策评估研究。'.repeat(150)), name: 'paper.txt' });

beforeAll(async () => {
  t = await buildCheckApp();
  await importSmallLibrary(t);
  user = await newUser(t);
  // Whatever registration gives: this account has no free check, so every upload is a paid order.
  await t.db.deleteFrom('entitlements').where('user_id', '=', user.userId).execute();
});
afterAll(() => t.close());

type ListItem = { orderId: string; checkStatusText: string };
async function listed(orderId: string): Promise<ListItem | undefined> {
  const list = await call<{ list: ListItem[] }>(
    t,
    '/freeCheck/orderList',
    { page: 1, pageSize: 50 },
    { token: user.token },
  );
  return list.data.list.find((item) => item.orderId === orderId);
}

async function ordersRowId(checkId: string): Promise<string> {
  const row = await t.db
    .selectFrom('checks')
    .select('order_id')
    .where('id', '=', checkId)
    .executeTakeFirstOrThrow();
  return row.order_id!;
}

describe('check status everywhere', () => {
  it('reads 订单已过期 in checkStatus, orderPayStatus and orderList once the order expired', async () => {
    const up = await upload(t, user.token, paper());
    expect(up.data.free).toBe(false);
    t.clock.advance(121 * MINUTE);
    const status = await checkStatus(t, user.token, up.data.orderId);
    const pay = await call<{ checkStatusText: string }>(
      t,
      '/freeCheck/orderPayStatus',
      { orderId: up.data.orderId },
      { token: user.token },
    );
    const item = await listed(up.data.orderId);
    expect(item?.checkStatusText).toMatch(/已过期/);
    expect(status.data.checkStatusText).toBe(item?.checkStatusText);
    expect(pay.data.checkStatusText).toBe(item?.checkStatusText);
  });

  it('serves no more the check of an order deleted through /order/delete', async () => {
    const up = await upload(t, user.token, paper());
    await payCheckOrder(t, user.token, up.data.orderId);
    await runCheckJobs(t);
    expect((await checkStatus(t, user.token, up.data.orderId)).data.checkStatus).toBe('done');
    const deleted = await call(
      t,
      '/order/delete',
      { orderId: await ordersRowId(up.data.orderId) },
      { token: user.token },
    );
    expect(deleted.code).toBe(0);
    expect((await checkStatus(t, user.token, up.data.orderId)).code).toBe(ErrorCode.RESOURCE_NOT_FOUND);
    expect((await getReport(t, user.token, up.data.orderId)).code).toBe(ErrorCode.RESOURCE_NOT_FOUND);
    expect(await listed(up.data.orderId)).toBeUndefined();
    const pay = await call(
      t,
      '/freeCheck/orderPayStatus',
      { orderId: up.data.orderId },
      { token: user.token },
    );
    expect(pay.code).toBe(ErrorCode.RESOURCE_NOT_FOUND);
  });

  it('/payFee on a paid check of a goods that allows free checks says it is a paid order', async () => {
    const up = await upload(t, user.token, paper());
    expect(up.data.free).toBe(false);
    const res = await call(t, '/freeCheck/payFee', { orderId: up.data.orderId }, { token: user.token });
    expect(res.code).toBe(ErrorCode.CHECK_FREE_UNAVAILABLE);
    expect(res.message).toBe('该订单为付费检测（上传时未使用免费查重），请支付后开始检测');
  });
});
