import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorker } from '../../src/jobs/index.ts';
import { checkJobDefinitions } from '../../src/modules/check/check.jobs.ts';
import { registerUser, sendCode } from '../accounts/accounts-helper.ts';
import { importSmallLibrary } from '../small-library.ts';
import {
  buildCheckApp,
  type CheckTestApp,
  call,
  getReport,
  grantFreeCheck,
  storedCheckFiles,
  upload,
} from './check-helper.ts';
import { buildDocx, buildThesis } from './fixtures.ts';

// A user's papers are personal data: "export my data" lists them, and deleting the account removes
// the uploads, texts and report files and takes an opted-in paper out of the comparison library.

let t: CheckTestApp;

beforeAll(async () => {
  t = await buildCheckApp();
  await importSmallLibrary(t);
});

afterAll(async () => {
  await t.close();
});

async function runAll() {
  const worker = createWorker({ db: t.db, definitions: checkJobDefinitions, services: t.root.services });
  await worker.tick();
  await worker.stop();
}

describe('account data', () => {
  it('export lists the checks; deletion removes files and the opted-in paper from the library', async () => {
    const { phone, token } = await registerUser(t);
    const userId = (await call<{ id: string }>(t, '/getUserInfo', {}, { token })).data.id;
    await grantFreeCheck(t, userId);
    const paper = buildThesis({ seed: 701, chars: 3000 });
    const up = await upload(
      t,
      token,
      { bytes: buildDocx(paper.blocks), name: 'mine.docx' },
      { addToLibrary: 'true', author: '周九' },
    );
    await call(t, '/freeCheck/payFee', { orderId: up.data.orderId }, { token });
    await runAll();
    const report = (await getReport(t, token, up.data.orderId)).data;
    expect(storedCheckFiles(t)).toHaveLength(7);
    expect((await t.check.library.describeSources([`upload:${up.data.orderId}`])).size).toBe(1);

    const exported = await t.app.inject({
      method: 'POST',
      url: '/kyfw/web/v1/websiteUser/exportData',
      headers: { token },
    });
    expect(exported.json().checks).toEqual([
      expect.objectContaining({
        title: '城市交通治理研究',
        author: '周九',
        status: 'done',
        reportNo: report.reportNo,
        addToLibrary: true,
      }),
    ]);

    t.clock.advance(2 * 60_000);
    const code = await sendCode(t, phone, '4', { token });
    expect((await call(t, '/websiteUser/deleteAccount', { checkCode: code }, { token })).code).toBe(0);
    const row = await t.db
      .selectFrom('checks')
      .selectAll()
      .where('id', '=', up.data.orderId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ author: '已注销', file_key: null, text_key: null });
    expect(row.hidden_at).not.toBeNull();

    await runAll(); // the purge job
    expect(storedCheckFiles(t)).toEqual([]);
    expect((await t.check.library.describeSources([`upload:${up.data.orderId}`])).size).toBe(0);
    const { report: again } = await t.check.library.check(paper.text);
    expect(again.sources).toEqual([]);
    // The printed report can still be verified (title, masked author, figures).
    const verify = await call<{ author: string }>(t, '/freeCheck/verify', {
      reportNo: report.reportNo,
      code: report.verificationCode,
    });
    expect(verify.data.author).toBe('周*');
  });
});
