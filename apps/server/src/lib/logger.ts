import { createRequire } from 'node:module';
import pino, { type Logger } from 'pino';
import type { Config } from '../config.ts';

export type { Logger } from 'pino';

/**
 * The process logger: JSON lines (pino) in production and tests; pretty-printed when developing in a
 * terminal and pino-pretty (a dev dependency) is installed. Session tokens never reach the logs.
 */
export function createLogger(config: Pick<Config, 'logLevel' | 'nodeEnv'>): Logger {
  const pretty = config.nodeEnv === 'development' && process.stdout.isTTY && hasPinoPretty();
  return pino({
    level: config.logLevel,
    redact: ['req.headers.token', 'req.headers.cookie', 'req.headers.authorization'],
    ...(pretty ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l' } } } : {}),
  });
}

function hasPinoPretty(): boolean {
  try {
    createRequire(import.meta.url).resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}
