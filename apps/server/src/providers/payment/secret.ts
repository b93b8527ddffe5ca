import { inspect } from 'node:util';

/**
 * A secret string (the WeChat APIv3 key, …) that cannot leak by accident: JSON.stringify, string
 * templates, util.inspect and pino all print `[redacted]`. Only `reveal()` gives the value.
 */
export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  reveal(): string {
    return this.#value;
  }

  toJSON(): string {
    return '[redacted]';
  }

  toString(): string {
    return '[redacted]';
  }

  [inspect.custom](): string {
    return 'Secret([redacted])';
  }
}

/** Accepts a plain string or a Secret and returns the value. */
export function revealSecret(value: string | Secret): string {
  return typeof value === 'string' ? value : value.reveal();
}
