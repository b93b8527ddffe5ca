import type { Server } from 'node:http';
import type { Socket } from 'node:net';

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
