import { formatDate, formatYuan, LIBRARY_COLLECTION_NAMES } from '@kyfw/contracts';
import type { CheckGoods, ReportSource, UploadResult } from '../types';

/** 12345 -> '12,345'. */
export function formatChars(n: number): string {
  return Math.round(n).toLocaleString('zh-CN');
}

/** A character limit the way Chinese pages state it: 300000 -> '30万', 15000 -> '1.5万', 8000 -> '8,000'. */
export function formatCharLimit(n: number): string {
  if (n >= 10_000) {
    const wan = Math.round((n / 10_000) * 10) / 10;
    return `${Number.isInteger(wan) ? wan.toFixed(0) : wan.toFixed(1)}万`;
  }
  return formatChars(n);
}

/** 0.35451 -> '35.5%' (one decimal, as the PDF report prints it). */
export function formatPercent(ratio: number | null | undefined): string {
  if (ratio === null || ratio === undefined || !Number.isFinite(ratio)) return '—';
  return `${(Math.round(ratio * 1000) / 10).toFixed(1)}%`;
}

/** Bytes -> whole megabytes for the stated upload limit (31457280 -> 30). */
export function bytesToMb(bytes: number): number {
  return Math.round((bytes / 1024 / 1024) * 10) / 10;
}

/** ISO time -> '2026-05-28 09:52' (local time); '—' when missing. */
export function formatTime(iso: string | null | undefined, withSeconds = false): string {
  if (!iso) return '—';
  try {
    return formatDate(iso, withSeconds ? 'YYYY-MM-DD HH:mm:ss' : 'YYYY-MM-DD HH:mm');
  } catch {
    return '—';
  }
}

/** The number of billed units (e.g. 千字) of a paper: whole units, at least the goods' minimum. */
export function billedUnits(chars: number, goods: Pick<CheckGoods, 'unitSize' | 'minQuantity'>): number {
  return Math.ceil(Math.max(chars, goods.minQuantity) / goods.unitSize);
}

/** How high the rate is, for colouring (not a verdict: schools set their own limits). */
export function rateLevel(ratio: number): 'low' | 'mid' | 'high' {
  if (ratio < 0.1) return 'low';
  if (ratio < 0.3) return 'mid';
  return 'high';
}

/** What the order box shows once the paper is parsed. */
export interface PriceView {
  /** 应付金额: '¥0.00' for a free check. */
  due: string;
  /** The catalogue price of the paper ('¥2.00'); struck through when the check is free. */
  price: string;
  free: boolean;
  /** Billing units and their size, e.g. 1 unit of 1,000 字. */
  units: number;
  unitSize: number;
  /** '2.00 元/千字' */
  unitPrice: string;
  /** The free check was held but does not apply (over the cap): the server's reason. */
  freeNote: string | null;
}

/**
 * The price display of a parsed paper. Amounts come from the server (never computed here); the
 * units shown next to them are derived from the characters and the goods for the explanation.
 */
export function priceView(
  upload: Pick<UploadResult, 'amount' | 'price' | 'free' | 'freeNote' | 'chars'>,
  goods: Pick<CheckGoods, 'unitSize' | 'minQuantity' | 'pricePerThousand'> | undefined,
): PriceView {
  const unitSize = goods?.unitSize ?? 1000;
  return {
    due: formatYuan(upload.free ? '0' : upload.amount),
    price: formatYuan(upload.price),
    free: upload.free,
    units: goods ? billedUnits(upload.chars, goods) : Math.ceil(upload.chars / unitSize),
    unitSize,
    unitPrice: goods ? `${goods.pricePerThousand} 元/千字` : '—',
    freeNote: upload.freeNote,
  };
}

/** Whether the free check may apply to a paper of `chars` characters on these goods. */
export function freeCheckFor(
  goods: Pick<CheckGoods, 'freeAvailable' | 'freeMaxChars'>,
  chars?: number,
): 'available' | 'over-cap' | 'not-held' | 'none' {
  if (goods.freeMaxChars === null) return 'none';
  if (!goods.freeAvailable) return 'not-held';
  if (chars !== undefined && chars > goods.freeMaxChars) return 'over-cap';
  return 'available';
}

/** Upload checks done in the browser before sending (the server checks again, by content). */
export const ACCEPTED_EXTENSIONS = ['.docx', '.doc', '.pdf', '.txt'] as const;

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot).toLowerCase();
}

/** A source's details in the report: authors · where published · year · discipline · collection. */
export function sourceMeta(source: ReportSource): string {
  return [
    source.authors.join('、'),
    source.source,
    source.year ? String(source.year) : null,
    source.discipline,
    source.collection ? LIBRARY_COLLECTION_NAMES[source.collection] : null,
  ]
    .filter((v): v is string => Boolean(v))
    .join(' · ');
}
