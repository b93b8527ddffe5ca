import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorker } from '../../src/jobs/index.ts';
import { type S3Sandbox, startS3Sandbox } from '../../src/lib/storage/s3-sandbox.ts';
import { checkJobDefinitions } from '../../src/modules/check/check.jobs.ts';
import {
  buildCheckApp,
  type CheckTestApp,
  call,
  download,
  getReport,
  newUser,
  payCheckOrder,
  runCheckJobs,
  seedLibrary,
  upload,
} from './check-helper.ts';
import { buildDocx, buildThesis, libraryText } from './fixtures.ts';

// The scaled mode's file storage: with STORAGE=s3 an upload, its extracted text and the reports go
// to the S3 store (here the loopback sandbox, which verifies every request's signature), nothing to
// DATA_DIR/files, and the user downloads the report from there; deleting the check removes them.

const KEYS = {
  accessKeyId: 'KYFWTESTKEY',
  secretAccessKey: 'kyfw-test-secret-0123456789',
  region: 'cn-north-1',
};
let sandbox: S3Sandbox;
let t: CheckTestApp;

beforeAll(async () => {
  sandbox = await startS3Sandbox({ ...KEYS, buckets: ['kyfw-files'] });
  t = await buildCheckApp({
    env: {
      STORAGE: 's3',
      S3_ENDPOINT: sandbox.endpoint,
      S3_BUCKET: 'kyfw-files',
      S3_ACCESS_KEY_ID: KEYS.accessKeyId,
      S3_SECRET_ACCESS_KEY: KEYS.secretAccessKey,
      S3_REGION: KEYS.region,
      S3_PREFIX: 'kyfw/',
    },
  });
  const source = libraryText(301, 1500);
  await seedLibrary(t, [{ id: 'lib:s3', title: '城市交通研究', text: source }]);
});

afterAll(async () => {
  await t?.close();
  await sandbox?.close();
});

describe('paper check with its files in an S3-compatible store', () => {
  it('keeps the upload and the reports in the bucket, serves the download from it, and deletes them with the check', async () => {
    const user = await newUser(t);
    const thesis = buildThesis({ seed: 31, chars: 6_000, planted: [libraryText(301, 1500).slice(200, 360)] });
    const up = await upload(t, user.token, { bytes: buildDocx(thesis.blocks), name: '交通治理.docx' });
    expect(up.code).toBe(0);
    await payCheckOrder(t, user.token, up.data.orderId);
    while ((await runCheckJobs(t)).length > 0);
    const report = await getReport(t, user.token, up.data.orderId);
    expect(report.code).toBe(0);

    const stored = sandbox.keys('kyfw-files');
    expect(stored.length).toBeGreaterThanOrEqual(3);
    expect(stored.every((k) => k.startsWith('kyfw/'))).toBe(true);
    expect(stored.some((k) => k.endsWith('.docx'))).toBe(true);
    const local = path.join(t.dataDir, 'files');
    expect(
      existsSync(local) ? readdirSync(local, { recursive: true }).filter((f) => String(f).includes('.')) : [],
    ).toEqual([]);

    const pdf = await download(t, user.token, up.data.orderId, 'pdf');
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    const removed = await call(
      t,
      '/freeCheck/deleteOrder',
      { orderId: up.data.orderId },
      { token: user.token },
    );
    expect(removed.code).toBe(0);
    // The files go with the check module's purge job.
    const worker = createWorker({ db: t.db, definitions: checkJobDefinitions, services: t.root.services });
    while ((await worker.tick()).length > 0);
    await worker.stop();
    expect(sandbox.keys('kyfw-files').filter((k) => k.endsWith('.docx'))).toEqual([]);
  });
});
