import { randomBytes } from 'node:crypto';
import { createWorker } from '../../src/jobs/index.ts';
import { reductionRewriteJob } from '../../src/modules/reduction/reduction.jobs.ts';
import type { CheckTestApp, Envelope } from '../check/check-helper.ts';

export const R = '/weightReduction';

/** POST /weightReduction/submitFile as multipart (fields first, then the file). */
export async function submitFile(
  t: CheckTestApp,
  token: string,
  file: { bytes: Uint8Array; name: string },
  fields: Record<string, string> = {},
) {
  const boundary = `----kyfw${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    Buffer.from(file.bytes),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  const res = await t.app.inject({
    method: 'POST',
    url: `/kyfw/web/v1${R}/submitFile`,
    headers: { token, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat(parts),
  });
  return res.json() as Envelope<{ reductionId: string; orderId: string; paragraphs: number }>;
}

/** Runs the due rewrite jobs once. */
export async function runRewriteJobs(t: Pick<CheckTestApp, 'db' | 'root'>): Promise<string[]> {
  const worker = createWorker({ db: t.db, definitions: [reductionRewriteJob], services: t.root.services });
  const ids = await worker.tick();
  await worker.stop();
  return ids;
}
