import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERSONAL, TEMPLATED } from '../../../../packages/aigc/test/samples.ts';
import { createWorker } from '../../src/jobs/index.ts';
import { checkPurgeFilesJob } from '../../src/modules/check/check.jobs.ts';
import { registerUser, sendCode } from '../accounts/accounts-helper.ts';
import {
  buildCheckApp,
  type CheckTestApp,
  call,
  grantFreeCheck,
  newUser,
  payCheckOrder,
  runCheckJobs,
  storedCheckFiles,
  upload,
} from '../check/check-helper.ts';
import { buildDocx } from '../check/fixtures.ts';
import { R, runRewriteJobs, submitFile } from './reduction-helper.ts';

// The texts sent to 降重/降AIGC, their rewrites and the uploaded .docx are personal data: "export my
// data" lists them, and deleting the account deletes them (rows and files), stops a paid rewrite
// not yet delivered and refunds it; the AIGC detection reports go too. Another account's stay.

let t: CheckTestApp;

const PARAGRAPH =
  '研究表明，随着互联网技术的不断发展，在线教育平台的用户规模显著扩大，因此提高教学质量成为平台发展的重要问题。' +
  '2020年全国在线教育用户达到3.42亿人，占网民整体的34.6%[1]。';
const DOC = buildDocx([{ text: '第一章 绪论', heading: 1 }, { text: PARAGRAPH }]);

beforeAll(async () => {
  t = await buildCheckApp();
});
afterAll(async () => {
  await t.close();
});

/** The uploaded .docx files of 降重 (DATA_DIR/files/reduction). */
function uploadedDocx(): string[] {
  return readdirSync(path.join(t.dataDir, 'files', 'reduction')).sort();
}

async function reductionsOf(userId: string) {
  return t.db.selectFrom('reductions').selectAll().where('user_id', '=', userId).execute();
}

describe('account deletion and export of reductions and AIGC reports', () => {
  it('exports them, then deletes rows and files and refunds the undelivered paid rewrite', async () => {
    const { phone, token } = await registerUser(t);
    const userId = (await call<{ id: string }>(t, '/getUserInfo', {}, { token })).data.id;
    const other = await newUser(t);

    // A finished 降重 of a .docx, and a paid 降AIGC whose rewrite has not run yet.
    const done = await submitFile(t, token, { bytes: DOC, name: '我的论文.docx' });
    expect(done.code).toBe(0);
    await payCheckOrder(t, token, done.data.orderId);
    await runRewriteJobs(t);
    const waiting = await call<{ reductionId: string; orderId: string }>(
      t,
      `${R}/submitContent`,
      { text: `${TEMPLATED}\n${PARAGRAPH}`, kind: 'aigc_reduction' },
      { token },
    );
    expect(waiting.code).toBe(0);
    await payCheckOrder(t, token, waiting.data.orderId);
    // An AIGC detection report (the free one of the registration).
    await grantFreeCheck(t, userId);
    const aigc = await upload(
      t,
      token,
      { bytes: buildDocx([{ text: TEMPLATED }, { text: PERSONAL }]), name: 'aigc.docx' },
      { goodsId: 'aigc_detection_standard' },
    );
    expect(aigc.code).toBe(0);
    await call(t, '/freeCheck/payFee', { orderId: aigc.data.orderId }, { token });
    await runCheckJobs(t);
    expect((await call(t, '/freeCheck/report', { orderId: aigc.data.orderId }, { token })).code).toBe(0);

    // The other account's reduction of the same document.
    const kept = await submitFile(t, other.token, { bytes: DOC, name: '别人的论文.docx' });
    expect(kept.code).toBe(0);

    const checkFilesBefore = storedCheckFiles(t);
    expect(checkFilesBefore.length).toBeGreaterThan(0);
    const filesBefore = uploadedDocx();
    expect(filesBefore).toHaveLength(2);

    const exported = await t.app.inject({
      method: 'POST',
      url: '/kyfw/web/v1/websiteUser/exportData',
      headers: { token },
    });
    const data = exported.json() as {
      reductions: {
        kind: string;
        fileName: string | null;
        originalText: string;
        rewrittenText: string | null;
      }[];
      checks: { checkNo: string; title: string; status: string }[];
    };
    expect(data.reductions).toHaveLength(2);
    expect(data.reductions[0]).toMatchObject({ kind: '降重', fileName: '我的论文.docx', status: '已完成' });
    expect(data.reductions[0]!.originalText).toContain('3.42亿');
    expect(data.reductions[0]!.rewrittenText).toContain('【沙箱示例】');
    expect(data.reductions[1]).toMatchObject({ kind: '降AIGC', status: '改写中', rewrittenText: null });
    expect(data.reductions[1]!.originalText).toContain(TEMPLATED.slice(0, 20));
    expect(data.checks.map((c) => c.status)).toEqual(['done']);

    t.clock.advance(2 * 60_000);
    const code = await sendCode(t, phone, '4', { token });
    expect((await call(t, '/websiteUser/deleteAccount', { checkCode: code }, { token })).code).toBe(0);

    expect(await reductionsOf(userId)).toEqual([]);
    expect(await reductionsOf(other.userId)).toHaveLength(1);
    // The paid rewrite that had not run: its job is cancelled, its order refunded in full.
    const job = await t.db
      .selectFrom('jobs')
      .select('status')
      .where('dedupe_key', '=', `reduction:${waiting.data.orderId}`)
      .executeTakeFirstOrThrow();
    expect(job.status).toBe('cancelled');
    const order = await t.db
      .selectFrom('orders')
      .select(['status', 'undelivered_at'])
      .where('id', '=', waiting.data.orderId)
      .executeTakeFirstOrThrow();
    expect(order.undelivered_at).not.toBeNull();
    const refunds = await t.db
      .selectFrom('refunds')
      .select(['amount_fen', 'reason'])
      .where('order_id', '=', waiting.data.orderId)
      .execute();
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.reason).toContain('账户已注销');

    const purge = createWorker({ db: t.db, definitions: [checkPurgeFilesJob], services: t.root.services });
    // The check module's purge and this module's.
    let purged = 0;
    for (let ids = await purge.tick(); ids.length > 0; ids = await purge.tick()) purged += ids.length;
    expect(purged).toBe(2);
    await purge.stop();
    // The AIGC report's upload, text and report files are gone; of the .docx only the other account's.
    expect(storedCheckFiles(t)).toEqual([]);
    const filesAfter = uploadedDocx();
    expect(filesAfter).toHaveLength(1);
    expect(filesBefore).toContain(filesAfter[0]);
    const keptRow = (await reductionsOf(other.userId))[0]!;
    expect(keptRow.file_key).toBe(`reduction/${filesAfter[0]}`);
    const aigcRow = await t.db
      .selectFrom('checks')
      .select(['file_key', 'text_key', 'hidden_at'])
      .where('id', '=', aigc.data.orderId)
      .executeTakeFirstOrThrow();
    expect(aigcRow).toMatchObject({ file_key: null, text_key: null });

    // The other account still sees and pays for its own.
    const list = await call<{ list: { reductionId: string }[] }>(
      t,
      `${R}/getMyWeightReductionOrder`,
      {},
      { token: other.token },
    );
    expect(list.data.list.map((x) => x.reductionId)).toEqual([kept.data.reductionId]);
  });
});
