import type { ExtractLimits } from './types.ts';

/** 30 MB input, 200 MB inflated, 1000 pages, 60 s, 1,000,000 characters. */
export const defaultExtractLimits: Readonly<ExtractLimits> = Object.freeze({
  maxBytes: 30 * 1024 * 1024,
  maxDecompressedBytes: 200 * 1024 * 1024,
  maxPages: 1000,
  timeoutMs: 60_000,
  maxChars: 1_000_000,
});

/** Fills in defaults; a missing, non-finite or non-positive value falls back to the default. */
export function resolveLimits(limits: Partial<ExtractLimits> | undefined): ExtractLimits {
  const resolved = { ...defaultExtractLimits };
  if (!limits) return resolved;
  for (const key of Object.keys(resolved) as (keyof ExtractLimits)[]) {
    const value = limits[key];
    if (typeof value === 'number' && Number.isFinite(value) && value > 0) resolved[key] = value;
  }
  return resolved;
}
