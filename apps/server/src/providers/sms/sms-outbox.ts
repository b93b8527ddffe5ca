import {
  appendFileSync,
  closeSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { SmsOutboxMessage } from './sms.types.ts';

/** File name of the outbox inside the state dir (JSON lines, one message per line). */
export const SMS_OUTBOX_FILE = 'sms-outbox.jsonl';

/** After this many lines on disk the file is rewritten keeping only the last message per phone. */
const COMPACT_AFTER_LINES = 2000;

/**
 * Where the sandbox SMS providers put what they "send". In memory, or JSON lines in a state dir so
 * that `GET /__dev/sms/last` still answers after a restart. Appends are synchronous: a few hundred
 * bytes per message, and the next request must see it — in this process or in another one sharing
 * the state dir (the scaled mode's API processes): a lookup first reads what others appended.
 */
export class SmsOutbox {
  private readonly last = new Map<string, SmsOutboxMessage>();
  private readonly file: string | null;
  private linesOnDisk = 0;
  /** How much of the file this process has read (or written); a smaller file was compacted. */
  private readBytes = 0;
  private fileIdentity = '';

  constructor(options: { stateDir?: string | null } = {}) {
    this.file = options.stateDir ? join(options.stateDir, SMS_OUTBOX_FILE) : null;
    if (this.file) {
      mkdirSync(options.stateDir!, { recursive: true });
      this.load(this.file);
    }
  }

  /** Records a message; the newest per phone wins. */
  record(message: SmsOutboxMessage): void {
    this.last.set(message.phone, message);
    if (!this.file) return;
    appendFileSync(this.file, `${JSON.stringify(message)}\n`, { mode: 0o600 });
    // Reads it back with whatever other processes appended before it (counting the lines).
    this.load(this.file);
    // Compacted when mostly superseded lines (not on every message once there are many phones).
    if (this.linesOnDisk > Math.max(COMPACT_AFTER_LINES, 2 * this.last.size)) this.compact(this.file);
  }

  /** The last message sent to `phone` (11 digits), or null. */
  lastMessage(phone: string): SmsOutboxMessage | null {
    if (this.file) this.load(this.file);
    return this.last.get(phone) ?? null;
  }

  /** Reads what was appended since the last read (all of it when the file was replaced). */
  private load(file: string): void {
    let size: number;
    let identity: string;
    try {
      const stat = statSync(file);
      size = stat.size;
      // A compaction replaces the file; its inode may be one freed earlier, its birth time is new.
      identity = `${stat.dev}:${stat.ino}:${stat.birthtimeMs}`;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    if (identity !== this.fileIdentity || size < this.readBytes) {
      this.fileIdentity = identity;
      this.readBytes = 0;
      this.linesOnDisk = 0;
    }
    if (size === this.readBytes) return;
    const buffer = Buffer.alloc(size - this.readBytes);
    const fd = openSync(file, 'r');
    let got = 0;
    try {
      got = readSync(fd, buffer, 0, buffer.length, this.readBytes);
    } finally {
      closeSync(fd);
    }
    // Only whole lines: a line being appended right now is read next time.
    const end = buffer.subarray(0, got).lastIndexOf(0x0a) + 1;
    if (end === 0) return;
    this.readBytes += end;
    const text = buffer.subarray(0, end).toString('utf8');
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      this.linesOnDisk += 1;
      try {
        const m = JSON.parse(line) as SmsOutboxMessage;
        if (typeof m.phone === 'string' && typeof m.code === 'string') this.last.set(m.phone, m);
      } catch {
        // A torn last line after a crash: skip it, the rest is intact.
      }
    }
  }

  private compact(file: string): void {
    const tmp = `${file}.tmp`;
    const body = [...this.last.values()].map((m) => `${JSON.stringify(m)}\n`).join('');
    writeFileSync(tmp, body, { mode: 0o600 });
    renameSync(tmp, file);
    this.linesOnDisk = this.last.size;
    this.fileIdentity = '';
    this.load(file);
  }
}
