/** Typed errors of the engine. `code` says what went wrong; `message` is for people. */
export type SimcheckErrorCode =
  | 'index_not_found'
  | 'index_corrupt'
  | 'index_params_mismatch'
  | 'index_locked'
  | 'invalid_document'
  | 'database_error'
  | 'input_error';

export class SimcheckError extends Error {
  override readonly name = 'SimcheckError';
  readonly code: SimcheckErrorCode;

  constructor(code: SimcheckErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
