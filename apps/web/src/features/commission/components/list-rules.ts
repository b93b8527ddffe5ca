/** A textarea of one entry per line -> the non-empty trimmed lines. */
export function linesOf(text: string | undefined): string[] {
  return (text ?? '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
}

/** The antd rule of a one-per-line list with the contract's limits and messages. */
export function listRule(r: {
  min: number;
  max: number;
  itemMax: number;
  required: string;
  tooMany: string;
  tooLong: string;
}) {
  return {
    validator: async (_rule: unknown, value: string | undefined) => {
      const lines = linesOf(value);
      if (lines.length < r.min) throw new Error(r.required);
      if (lines.length > r.max) throw new Error(r.tooMany);
      if (lines.some((l) => l.length > r.itemMax)) throw new Error(r.tooLong);
    },
  };
}
