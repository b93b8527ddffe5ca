import { ErrorCode } from '@kyfw/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operator, uploadOfflineProof } from '../orders/orders-helper.ts';
import { importSmallLibrary } from '../small-library.ts';
import { buildCheckApp, type CheckTestApp, call, newUser, upload } from './check-helper.ts';
import { buildTxt, libraryText } from './fixtures.ts';

// A check paid by bank transfer: once the proof is uploaded the order waits for an operator. The
// pages must say 待确认 and what happens next — not 待支付 with 去支付, nor a delete confirmation
// promising 不会产生任何费用 that the server refuses (3012).

let t: CheckTestApp;
beforeAll(async () => {
  t = await buildCheckApp();
  await importSmallLibrary(t);
});
afterAll(() => t.close());

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(200, 7)]);

interface CheckRow {
  orderId: string;
  checkStatusText: string;
  offlinePending: boolean;
  offlinePendingText: string | null;
  actions: { pay: boolean; delete: boolean };
}
interface OrderRow {
  orderId: string;
  statusText: string;
  offlinePending: boolean;
  offlinePendingText: string | null;
  canPay: boolean;
  canCancel: boolean;
}

async function rows(token: string) {
  const checks = await call<{ list: CheckRow[] }>(
    t,
    '/freeCheck/orderList',
    { page: 1, pageSize: 10 },
    { token },
  );
  const orders = await call<{ list: OrderRow[] }>(t, '/order/list', { page: 1, pageSize: 10 }, { token });
  return { check: checks.data.list[0], order: orders.data.list[0] };
}

describe('an offline transfer with its proof uploaded', () => {
  it('shows 待确认 with what happens next, offers no 去支付 or 删除; after a rejection it is payable again', async () => {
    const user = await newUser(t);
    const up = await upload(t, user.token, { bytes: buildTxt(libraryText(901, 3000)), name: '论文.txt' });
    expect(up.code).toBe(0);
    const before = await rows(user.token);
    expect(before.check).toMatchObject({ offlinePending: false, actions: { pay: true, delete: true } });
    expect(before.order).toMatchObject({ statusText: '待支付', canPay: true });

    const proof = await uploadOfflineProof(t, user.token, before.order.orderId, PNG);
    expect(proof.code).toBe(0);

    const after = await rows(user.token);
    expect(after.check).toMatchObject({
      checkStatusText: '待确认',
      offlinePending: true,
      offlinePendingText: expect.stringContaining('工作人员核对到账后将确认订单'),
      actions: { pay: false, delete: false },
    });
    expect(after.order).toMatchObject({
      statusText: '待确认',
      offlinePending: true,
      canPay: false,
      canCancel: false,
    });
    const status = await call<{ checkStatusText: string }>(
      t,
      '/freeCheck/checkStatus',
      { orderId: up.data.orderId },
      { token: user.token },
    );
    expect(status.data.checkStatusText).toBe('待确认');
    // The server refuses the delete, as the page now says.
    expect(
      (await call(t, '/freeCheck/deleteOrder', { orderId: up.data.orderId }, { token: user.token })).code,
    ).toBe(ErrorCode.OFFLINE_PROOF_PENDING);

    // The operator finds no transfer: the order is 待支付 again, with 去支付 and 删除.
    expect(
      (await operator(t, '/offline/reject', { proofId: proof.data.proofId, reason: '未查到到账' })).code,
    ).toBe(0);
    const rejected = await rows(user.token);
    expect(rejected.check).toMatchObject({ offlinePending: false, actions: { pay: true, delete: true } });
    expect(rejected.order).toMatchObject({ statusText: '待支付', offlinePending: false, canPay: true });
  });
});
