import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { loadOrCreateSecretFile } from '../../lib/secret-file.ts';

/**
 * Report verification. Every report gets a report number and an 8-character verification code; the
 * server signs the report's summary (HMAC-SHA256 with REPORT_SIGNING_SECRET). Verification looks the
 * number up, checks the code and the signature, and shows the signed summary — so a PDF whose rate
 * was edited is caught: the page shows the true figures, not the forged ones.
 */

/** Unambiguous upper-case alphabet (no 0/O, 1/I/L). */
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

/** What verification shows and what the signature covers. */
export interface ReportSummary {
  reportNo: string;
  title: string;
  /** Masked: first character kept, the rest '*' (张** ). */
  author: string;
  goodsName: string;
  /** 总字数 */
  totalChars: number;
  /** 重复字数 */
  copiedChars: number;
  /** 总文字复制比 (0–1) */
  ratio: number;
  /** 去除引用文献复制比 (0–1) */
  ratioExcludingQuotes: number;
  /** 单篇最大文字复制比 (0–1) */
  maxSingleSourceRatio: number;
  /** ISO time of the check. */
  checkedAt: string;
  /** An AIGC detection report (migration 0018): its kind, AIGC index 0–100 and whether it is reliable. */
  kind?: 'aigc';
  aigcScore?: number;
  aigcReliable?: boolean;
  /** A similarity report with AIGC detection ordered with it (migration 0042): its figures, or failed. */
  aigcAddon?: {
    goodsName: string;
    failed: boolean;
    score: number | null;
    reliable: boolean | null;
    /** Characters of flagged paragraphs (decision 0035); absent in reports signed before it. */
    flaggedChars?: number;
  };
}

/** The secret from config, or one generated once into DATA_DIR/secrets (mode 0600) and reused. */
export function loadSigningSecret(options: { configured?: string; dataDir: string }): string {
  if (options.configured) return options.configured;
  return loadOrCreateSecretFile(options.dataDir, 'report-signing.key');
}

/** 'BG' + yyyyMMdd (China time) + 8 random characters. */
export function newReportNo(now: Date): string {
  const day = new Date(now.getTime() + 8 * 3600_000).toISOString().slice(0, 10).replaceAll('-', '');
  let tail = '';
  for (let i = 0; i < 8; i++) tail += ALPHABET[randomInt(ALPHABET.length)];
  return `BG${day}${tail}`;
}

/** Canonical JSON of the summary: keys in a fixed order, so the same values always sign the same. */
export function canonicalSummary(s: ReportSummary): string {
  return JSON.stringify([
    s.reportNo,
    s.title,
    s.author,
    s.goodsName,
    s.totalChars,
    s.copiedChars,
    s.ratio,
    s.ratioExcludingQuotes,
    s.maxSingleSourceRatio,
    s.checkedAt,
    // Only AIGC reports carry these, so the signatures of similarity reports are unchanged.
    ...(s.kind === 'aigc' ? [s.kind, s.aigcScore ?? null, s.aigcReliable ?? null] : []),
    ...(s.aigcAddon
      ? [
          'aigcAddon',
          s.aigcAddon.goodsName,
          s.aigcAddon.failed,
          s.aigcAddon.score,
          s.aigcAddon.reliable,
          // Signed only when present, so the signatures of earlier reports are unchanged.
          ...(s.aigcAddon.flaggedChars === undefined ? [] : [s.aigcAddon.flaggedChars]),
        ]
      : []),
  ]);
}

export function signSummary(secret: string, summary: ReportSummary): string {
  return createHmac('sha256', secret)
    .update(`summary:${canonicalSummary(summary)}`)
    .digest('hex');
}

/** The printed code: derived from the signature, so only the server can make a matching one. */
export function verificationCodeOf(secret: string, signature: string): string {
  const mac = createHmac('sha256', secret).update(`code:${signature}`).digest();
  let code = '';
  for (let i = 0; i < 8; i++) code += ALPHABET[mac[i]! % ALPHABET.length];
  return code;
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** True when the stored summary still carries its signature and the code matches it. */
export function isGenuine(secret: string, summary: ReportSummary, signature: string, code: string): boolean {
  const expected = signSummary(secret, summary);
  return safeEqual(expected, signature) && safeEqual(verificationCodeOf(secret, signature), code);
}

/** 张三丰 -> 张**; 'Li Lei' -> 'L*****'. */
export function maskAuthor(author: string): string {
  const chars = [...author.trim()];
  if (chars.length === 0) return '';
  return chars[0] + '*'.repeat(Math.max(1, Math.min(chars.length - 1, 6)));
}
