// `npm run bench:check`: the paper-check service end to end, as a student uses it, in embedded mode.
// The staged corpus (../shared/data/corpus/csl_papers.jsonl.gz) is imported into the library; one
// 20,000-character paper is uploaded, paid through the sandbox and timed from payment to report;
// then ten papers are paid together and the job queue's throughput (checks per minute) is measured.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot, startServer } from '../apps/e2e/lib/server.ts';
import { API_PREFIX, api, MANY_USERS_ENV, registerUser, type TestUser } from '../apps/e2e/lib/users.ts';
import { corpusFile, makePaper } from './bench-papers.ts';

const server = await startServer({
  ...MANY_USERS_ENV,
  WEB_DIST_DIR: join(repoRoot, '.bench/no-web'),
  LOG_LEVEL: 'error',
});
try {
  const started = Date.now();
  const imported = spawnSync(process.execPath, ['apps/server/src/cli/library-import.ts', corpusFile], {
    cwd: repoRoot,
    env: { ...process.env, DATA_DIR: server.dataDir, DATABASE_URL: '' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (imported.status !== 0) throw new Error('library import failed');
  console.log(
    `\nlibrary import (18,190 CSL abstracts, embedded): ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );

  const user = await registerUser(server.baseUrl);

  async function upload(seed: number): Promise<string> {
    const form = new FormData();
    form.append('title', `性能测试论文 ${seed}`);
    form.append('author', '测试');
    form.append('goodsId', 'check_journal');
    form.append('file', new Blob([makePaper(seed)], { type: 'text/plain' }), `paper-${seed}.txt`);
    const res = await fetch(`${server.baseUrl}${API_PREFIX}/freeCheck/uploadFile`, {
      method: 'POST',
      headers: { token: user.token, terminal: 'PC' },
      body: form,
    });
    const envelope = (await res.json()) as { code: number; message: string; data: { orderId: string } };
    if (envelope.code !== 0) throw new Error(`uploadFile: ${envelope.message}`);
    return envelope.data.orderId;
  }

  async function pay(u: TestUser, orderId: string): Promise<void> {
    const qr = await api<{ outTradeNo: string }>(
      server.baseUrl,
      '/order/pay',
      { orderId, payType: 'ali' },
      u.token,
    );
    await api(server.baseUrl, '/__dev/pay', { orderNo: qr.outTradeNo });
  }

  async function waitForReport(orderId: string): Promise<void> {
    for (;;) {
      const status = await api<{ checkStatus: string; reportReady: boolean; failureReason: string | null }>(
        server.baseUrl,
        '/freeCheck/orderPayStatus',
        { orderId },
        user.token,
      );
      if (status.reportReady) return;
      if (status.checkStatus === 'failed') throw new Error(`check failed: ${status.failureReason}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  // warm-up paper (first check of a process loads the index and the worker threads)
  const warm = await upload(0);
  await pay(user, warm);
  await waitForReport(warm);

  const single = await upload(1);
  const paidAt = Date.now();
  await pay(user, single);
  await waitForReport(single);
  const latency = (Date.now() - paidAt) / 1000;
  console.log(`one 20,000-character paper, payment to report: ${latency.toFixed(2)} s`);

  const orders = await Promise.all(Array.from({ length: 10 }, (_, i) => upload(i + 2)));
  const batchStart = Date.now();
  for (const orderId of orders) await pay(user, orderId);
  await Promise.all(orders.map(waitForReport));
  const minutes = (Date.now() - batchStart) / 60_000;
  console.log(
    `ten 20,000-character papers through the job queue: ${(minutes * 60).toFixed(1)} s, ${(10 / minutes).toFixed(1)} checks per minute`,
  );
} finally {
  await server.stop();
}
