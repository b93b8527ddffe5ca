// Issue 22 over real sockets, with the server's timeouts configured small: a request the HTTP parser
// cannot read is answered in the envelope; a dripped body is cut at the body deadline, not held for
// the request timeout; an upload whose client left stops its parsing; and a parse longer than the
// idle timeout still gets its answer (the connection is held for the extraction's deadline).
import { connect, type Socket } from 'node:net';
import { API_PREFIX, ErrorCode } from '@kyfw/contracts';
import { extractionPoolStats } from '@kyfw/simcheck/extract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildSlowPdf } from '../../../packages/simcheck/test/fixtures-src/pdf-samples.ts';
import { buildCheckApp, type CheckTestApp, newUser } from './check/check-helper.ts';
import { multipart } from './commission/commission-helper.ts';

let t: CheckTestApp;
let port: number;
let user: { token: string; userId: string };

beforeAll(async () => {
  t = await buildCheckApp({
    env: {
      HTTP_IDLE_TIMEOUT_SECONDS: '1',
      HTTP_BODY_TIMEOUT_SECONDS: '2',
      HTTP_BODY_MIN_BYTES_PER_SECOND: '1024',
      // The request timeout stays the default 300 s: the body deadline must cut the drip long before.
    },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
  user = await newUser(t);
});
afterAll(() => t.close());

function open(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Everything the server sends until it closes the connection. */
function readAll(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => {});
    socket.once('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** The JSON bodies of the HTTP answers in `raw`, with their status lines. */
function answers(raw: string): { status: string; body: { code: number; message: string } }[] {
  return [
    ...raw.matchAll(/HTTP\/1\.1 (\d{3})[^\r]*\r\n[\s\S]*?\r\n\r\n(\{[^\r\n]*?\})(?=HTTP\/1\.1|$)/g),
  ].map((m) => ({ status: m[1]!, body: JSON.parse(m[2]!) }));
}

describe('what the HTTP parser cannot read', () => {
  it('a Content-Length shorter than the body: the rest is answered in the envelope, in Chinese', async () => {
    const socket = await open();
    const all = readAll(socket);
    const body = '{"reportNo":"BG20260101","code":"123456"}';
    socket.write(
      `POST ${API_PREFIX}/freeCheck/verify HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\r\n${body}`,
    );
    const raw = await all;
    // The first 5 bytes are the request's body; the rest parses as a broken next request, which
    // Node's parser rejects while the first is still being handled: the connection ends with the
    // envelope (never Fastify's English `{"error":"Bad Request","message":"Client Error"}`).
    expect(raw).not.toContain('Client Error');
    expect(answers(raw).at(-1)).toEqual({
      status: '400',
      body: {
        code: ErrorCode.MALFORMED_BODY,
        message: '请求格式错误（如 Content-Length 与实际内容不符），连接已关闭，请重新发送',
        data: null,
      },
    });
  });
});

describe('a body dripped one byte at a time', () => {
  it('is cut at the body deadline (2 s here) with the envelope, though each byte keeps the idle timer alive', async () => {
    const socket = await open();
    const all = readAll(socket);
    const started = Date.now();
    socket.write(
      `POST ${API_PREFIX}/freeCheck/verify HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{`,
    );
    // A byte every 400 ms: under the 1 s idle timeout, so only the body deadline can stop it.
    const drip = setInterval(() => {
      if (!socket.destroyed) socket.write(' ');
    }, 400);
    try {
      const raw = await all;
      const elapsed = Date.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(1900);
      expect(elapsed).toBeLessThan(15_000);
      expect(answers(raw)).toEqual([
        {
          status: '408',
          body: {
            code: ErrorCode.RATE_LIMITED,
            message: '请求内容发送过慢或超时，连接已关闭，请检查网络后重试',
            data: null,
          },
        },
      ]);
    } finally {
      clearInterval(drip);
    }
  });

  it('a body that arrives steadily is not cut', async () => {
    const res = await fetch(`http://127.0.0.1:${port}${API_PREFIX}/freeCheck/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ reportNo: 'BG20260101', code: '123456' }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { code: number }).code).toBe(ErrorCode.REPORT_NOT_GENUINE);
  });
});

describe('an upload being parsed', { timeout: 60_000 }, () => {
  const slowPdf = buildSlowPdf(1_500_000);
  const upload = () => multipart({}, { bytes: slowPdf, name: 'task-book.pdf' });

  it('stops parsing when its client goes away', async () => {
    const form = upload();
    const socket = await open();
    socket.on('error', () => {});
    socket.write(
      `POST ${API_PREFIX}/aiWriting/recognitionFile HTTP/1.1\r\nHost: localhost\r\nterminal: PC\r\ntoken: ${user.token}\r\nContent-Type: ${form.contentType}\r\nContent-Length: ${form.payload.length}\r\n\r\n`,
    );
    socket.write(form.payload);
    await vi.waitFor(() => expect(extractionPoolStats().running).toBe(1), { timeout: 20_000, interval: 20 });
    socket.destroy();
    // The parse needs seconds more; the worker is stopped at once instead.
    await vi.waitFor(() => expect(extractionPoolStats()).toEqual({ running: 0, waiting: 0 }), {
      timeout: 1000,
      interval: 20,
    });
  });

  it('gets its answer although the parse outlasts the 1 s idle timeout', async () => {
    const form = upload();
    const started = Date.now();
    const res = await fetch(`http://127.0.0.1:${port}${API_PREFIX}/aiWriting/recognitionFile`, {
      method: 'POST',
      headers: { terminal: 'PC', token: user.token, 'content-type': form.contentType },
      body: form.payload,
    });
    const elapsed = Date.now() - started;
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { code: number };
    // Parsed (or stopped by its own deadline): an answer either way, after more than the idle timeout.
    expect([0, ErrorCode.VALIDATION]).toContain(answer.code);
    expect(elapsed).toBeGreaterThan(1500);
  });
});
