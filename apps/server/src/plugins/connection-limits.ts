import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ErrorCode } from '@kyfw/contracts';

/**
 * At most `max` open connections per client address (0: no limit): a further connection is closed
 * at once, before it is read. With a reverse proxy in front, the proxy is the one client; set the
 * limit above its connection pool (HTTP_MAX_CONNECTIONS_PER_CLIENT).
 */
export function limitConnectionsPerClient(server: Server, max: number): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = open.get(address) ?? 0;
    if (count >= max) {
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}

const CLIENT_ERROR_TEXTS = {
  malformed: '请求格式错误（如 Content-Length 与实际内容不符），连接已关闭，请重新发送',
  timeout: '请求内容发送过慢或超时，连接已关闭，请检查网络后重试',
  headersTooLarge: '请求头过大，连接已关闭',
} as const;

/** A whole HTTP answer with the API's envelope, for a socket on which no request could be read. */
function rawEnvelope(status: 400 | 408 | 431, code: number, message: string): string {
  const body = JSON.stringify({ code, message, data: null });
  const reason = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' }[
    status
  ];
  return `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

/**
 * Fastify's clientErrorHandler: what Node's HTTP parser could not read (a Content-Length shorter
 * than the body leaves bytes that parse as a broken next request; a header block too large; a
 * request not whole within HTTP_REQUEST_TIMEOUT_SECONDS) is answered in the API's envelope with a
 * Chinese message (1006 malformed, 1007 too large, 1009 too slow) and the connection closed —
 * instead of Node's and Fastify's English `400 Client Error`.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT')
      socket.write(rawEnvelope(408, ErrorCode.RATE_LIMITED, CLIENT_ERROR_TEXTS.timeout));
    else if (error.code === 'HPE_HEADER_OVERFLOW')
      socket.write(rawEnvelope(431, ErrorCode.PAYLOAD_TOO_LARGE, CLIENT_ERROR_TEXTS.headersTooLarge));
    else socket.write(rawEnvelope(400, ErrorCode.MALFORMED_BODY, CLIENT_ERROR_TEXTS.malformed));
  }
  socket.destroy();
}

/**
 * A request body must keep arriving: it may take `graceMs` plus one second for every
 * `minBytesPerSecond` bytes received so far, and never more than `maxMs` (the request timeout).
 * A body dripped a byte every 10 s (which keeps the idle timeout from firing) is cut after about
 * `graceMs`, not held for the whole request timeout; a 30 MB upload on a slow line still gets its
 * time. The client gets the envelope (408, 1009) and the connection is closed.
 */
export function limitBodyTime(
  server: Server,
  options: { graceMs: number; minBytesPerSecond: number; maxMs: number },
): void {
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const hasBody =
      request.headers['transfer-encoding'] !== undefined ||
      Number(request.headers['content-length'] ?? 0) > 0;
    if (!hasBody || request.complete) return;
    const socket = request.socket;
    const started = Date.now();
    const bytesAtStart = socket.bytesRead;
    let timer: NodeJS.Timeout | undefined;
    const stop = () => clearTimeout(timer);
    const check = () => {
      if (request.complete || socket.destroyed) return;
      const received = socket.bytesRead - bytesAtStart;
      const allowed = Math.min(
        options.maxMs,
        options.graceMs + (received / options.minBytesPerSecond) * 1000,
      );
      const left = started + allowed - Date.now();
      if (left > 0) {
        timer = setTimeout(check, left);
        timer.unref();
        return;
      }
      if (!response.headersSent && socket.writable)
        socket.write(rawEnvelope(408, ErrorCode.RATE_LIMITED, CLIENT_ERROR_TEXTS.timeout));
      socket.destroy();
    };
    request.once('end', stop);
    response.once('close', stop);
    check();
  });
}
