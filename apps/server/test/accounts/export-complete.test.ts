// Issue 22: "export my data" holds everything the account keeps — besides the account, orders,
// checks, reductions and commissions, also the AI-writing drafts, the offline payment proofs and the
// attachments uploaded for a form not sent (yet).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildCheckApp, type CheckTestApp, call, newUser } from '../check/check-helper.ts';
import { buildTxt } from '../check/fixtures.ts';
import { multipart } from '../commission/commission-helper.ts';
import { newOrder, uploadOfflineProof } from '../orders/orders-helper.ts';

let t: CheckTestApp;
beforeAll(async () => {
  t = await buildCheckApp();
});
afterAll(() => t.close());

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(300, 7)]);

it('includes the AI-writing drafts, the offline payment proofs and the loose commission attachments', async () => {
  const user = await newUser(t);
  const draft = await call<{ writingId: string }>(
    t,
    '/aiWriting/saveOrder',
    {
      area: 'dissertation',
      topic: '城市社区养老服务供给研究',
      title: '城市社区养老服务供给的优化路径研究',
      discipline: '社会学',
      targetWords: 10000,
      requirements: '需要包含问卷调查的分析',
    },
    { token: user.token },
  );
  expect(draft.code).toBe(0);

  const order = await newOrder(t, user.userId);
  expect((await uploadOfflineProof(t, user.token, order.orderId, PNG)).code).toBe(0);

  const form = multipart({}, { bytes: buildTxt('查新委托的附件正文。'.repeat(40)), name: '委托附件.txt' });
  const attached = await t.app.inject({
    method: 'POST',
    url: '/kyfw/web/v1/commission/uploadFile',
    headers: { token: user.token, 'content-type': form.contentType },
    payload: form.payload,
  });
  expect(attached.json()).toMatchObject({ code: 0 });

  const res = await t.app.inject({
    method: 'POST',
    url: '/kyfw/web/v1/websiteUser/exportData',
    headers: { token: user.token },
  });
  expect(res.statusCode).toBe(200);
  const data = res.json();
  expect(data.writings).toEqual([
    expect.objectContaining({
      area: 'dissertation',
      topic: '城市社区养老服务供给研究',
      title: '城市社区养老服务供给的优化路径研究',
      discipline: '社会学',
      targetWords: 10000,
      requirements: '需要包含问卷调查的分析',
      status: 'draft',
      deletedAt: null,
    }),
  ]);
  expect(data.orders.offlineProofs).toEqual([
    expect.objectContaining({
      orderNo: order.orderNo,
      mimeType: 'image/png',
      bytes: PNG.length,
      status: 'pending',
    }),
  ]);
  expect(data.commissionAttachments).toEqual([
    { fileName: '委托附件.txt', bytes: expect.any(Number), uploadedAt: expect.any(String) },
  ]);
  // Nothing of another account, and no internal ids.
  expect(res.body).not.toContain(draft.data.writingId);
});
