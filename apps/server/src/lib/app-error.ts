import { ErrorCode, type ErrorCodeValue, ErrorMessage } from '@kyfw/contracts';

/**
 * The one error a handler throws to answer with a non-zero envelope code. The message is Chinese and
 * shown to the user as a toast; it defaults to the catalogue's message for the code.
 * `cause` is logged, never sent.
 */
export class AppError extends Error {
  override readonly name = 'AppError';
  readonly code: ErrorCodeValue;

  constructor(code: ErrorCodeValue, message?: string, options?: { cause?: unknown }) {
    super(message ?? ErrorMessage[code] ?? ErrorMessage[ErrorCode.INTERNAL], options);
    this.code = code;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
