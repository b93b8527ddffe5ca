/**
 * Exact conversions between integer fen and the platforms' yuan strings. No floating point ever
 * touches an amount: Alipay's "0.29" must be 29 fen, not 28.999….
 */

/** The largest amount either platform accepts in one order: Alipay's 100,000,000.00 yuan. */
export const MAX_AMOUNT_FEN = 10_000_000_000;

const YUAN_PATTERN = /^(0|[1-9]\d{0,8})(?:\.(\d{1,2}))?$/;

/**
 * Parses a platform amount such as `"88.88"`, `"0.5"` or `"100"` into fen.
 * Strict: no sign, no exponent, no spaces, no more than two decimals, no leading zeros.
 * @returns the amount in fen, or null when the string is not such an amount.
 */
export function parseYuanToFen(yuan: string): number | null {
  const match = YUAN_PATTERN.exec(yuan);
  if (!match) return null;
  const fen = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return fen <= MAX_AMOUNT_FEN ? fen : null;
}

/**
 * Writes fen as the 2-decimal yuan string both platforms take: 1 -> "0.01", 8888 -> "88.88".
 * @throws RangeError when `fen` is not an integer in 0..MAX_AMOUNT_FEN.
 */
export function formatFenAsYuan(fen: number): string {
  if (!isAmountFen(fen, { allowZero: true })) throw new RangeError('amount in fen out of range');
  const whole = Math.floor(fen / 100);
  const cents = fen % 100;
  return `${whole}.${cents.toString().padStart(2, '0')}`;
}

/** True for an integer fen amount within the platforms' limits (positive unless `allowZero`). */
export function isAmountFen(fen: unknown, options: { allowZero?: boolean } = {}): fen is number {
  return (
    typeof fen === 'number' &&
    Number.isSafeInteger(fen) &&
    fen <= MAX_AMOUNT_FEN &&
    (options.allowZero ? fen >= 0 : fen > 0)
  );
}
