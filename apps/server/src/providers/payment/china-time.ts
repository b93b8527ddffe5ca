/**
 * Time formats of the two platforms, always in China Standard Time (UTC+8, no daylight saving),
 * independent of the machine's TZ.
 */

const CST_OFFSET_MS = 8 * 60 * 60 * 1000;

function shanghaiParts(date: Date): string {
  if (Number.isNaN(date.getTime())) throw new RangeError('invalid date');
  // 2024-05-01T12:34:56.789Z shifted by +8h, read as if it were UTC.
  return new Date(date.getTime() + CST_OFFSET_MS).toISOString();
}

/** Alipay's `yyyy-MM-dd HH:mm:ss` in Asia/Shanghai: `2024-05-01 20:34:56`. */
export function formatShanghaiDateTime(date: Date): string {
  const iso = shanghaiParts(date);
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

/** Parses Alipay's `yyyy-MM-dd HH:mm:ss` (Asia/Shanghai); null when malformed. */
export function parseShanghaiDateTime(text: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(text);
  if (!m) return null;
  return parseRfc3339(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}+08:00`);
}

/** WeChat's RFC 3339 with the +08:00 offset and whole seconds: `2024-05-01T20:34:56+08:00`. */
export function formatRfc3339Shanghai(date: Date): string {
  return `${shanghaiParts(date).slice(0, 19)}+08:00`;
}

/** Parses an RFC 3339 date-time with an explicit offset (`Z` or `±hh:mm`); null when malformed. */
export function parseRfc3339(text: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/.exec(text);
  if (!m) return null;
  const [, _y, mo, d, h, mi, s] = m;
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > 31 || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) {
    return null;
  }
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) return null;
  // Reject calendar overflow such as 02-31, which Date silently rolls into March.
  const offset =
    m[8] === 'Z'
      ? 0
      : (m[8]!.startsWith('-') ? -1 : 1) * (Number(m[8]!.slice(1, 3)) * 60 + Number(m[8]!.slice(4, 6)));
  const local = new Date(date.getTime() + offset * 60_000);
  if (local.getUTCDate() !== day || local.getUTCMonth() + 1 !== month) return null;
  return date;
}
