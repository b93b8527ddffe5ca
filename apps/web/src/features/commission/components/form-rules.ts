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

/** A required field's rule with the contract's message. */
export const required = (message: string) => ({ required: true, message });

/** A required text with a maximum length (the contract's `{max, required, tooLong}`). */
export function textRules(r: { max: number; required: string; tooLong: string }) {
  return [required(r.required), { max: r.max, message: r.tooLong }];
}

/** A required long text with a minimum and a maximum length. */
export function longTextRules(r: {
  min: number;
  max: number;
  required: string;
  tooShort: string;
  tooLong: string;
}) {
  return [required(r.required), { min: r.min, message: r.tooShort }, { max: r.max, message: r.tooLong }];
}
