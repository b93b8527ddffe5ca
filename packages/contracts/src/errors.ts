/**
 * The error-code catalogue. Every non-zero `code` the server sends is listed here with the
 * situation that produces it and the default Chinese message. 1005 is fixed by the spec; the rest
 * are ours. Ranges: 1xxx wire and session, 2xxx accounts, 3xxx orders and payment,
 * 4xxx paper check and files, 5xxx reduction and AI writing, 6xxx content (news, search reports).
 * Add new codes in the range of their module, each with a comment saying when it is used.
 */
export const ErrorCode = {
  /** Success. */
  OK: 0,
  /** An unexpected server error; the real cause is logged with the request id, never sent. */
  INTERNAL: 1000,
  /** A request body/query failed its schema; the message names the field in Chinese. */
  VALIDATION: 1001,
  /** No API endpoint at this path (or wrong method). */
  NOT_FOUND: 1002,
  /** The endpoint needs a logged-in user and the `token` header is missing, unknown or revoked. */
  UNAUTHORIZED: 1003,
  /** The caller is logged in but may not touch this resource (someone else's order, file, ...). */
  FORBIDDEN: 1004,
  /** A WeChat login/bind QR code has expired (spec §4): the web shows the message and fetches a new QR. */
  QR_EXPIRED: 1005,
  /** The body is not valid JSON (or not the expected encoding). */
  MALFORMED_BODY: 1006,
  /** The body exceeds the configured size cap. */
  PAYLOAD_TOO_LARGE: 1007,
  /** Content-Type not accepted for this endpoint. */
  UNSUPPORTED_MEDIA_TYPE: 1008,
  /** Too many requests from this client in a window (rate limit). */
  RATE_LIMITED: 1009,
  /** A resource the request names does not exist (or is not visible to the caller). */
  RESOURCE_NOT_FOUND: 1010,
  /** The request conflicts with the current state (e.g. the action is no longer allowed). */
  CONFLICT: 1011,
  /** A sandbox-only (/__dev) endpoint was called while real providers are configured. */
  DEV_ONLY: 1012,
} as const;

export type ErrorCodeName = keyof typeof ErrorCode;
export type ErrorCodeValue = (typeof ErrorCode)[ErrorCodeName];

/** Default Chinese messages, used when a thrower gives none. */
export const ErrorMessage: Record<number, string> = {
  [ErrorCode.INTERNAL]: '服务器繁忙，请稍后再试',
  [ErrorCode.VALIDATION]: '请求参数有误',
  [ErrorCode.NOT_FOUND]: '请求的接口不存在',
  [ErrorCode.UNAUTHORIZED]: '请先登录',
  [ErrorCode.FORBIDDEN]: '无权访问该内容',
  [ErrorCode.QR_EXPIRED]: '二维码已过期，请重新扫码',
  [ErrorCode.MALFORMED_BODY]: '请求内容格式错误，无法解析',
  [ErrorCode.PAYLOAD_TOO_LARGE]: '请求内容过大',
  [ErrorCode.UNSUPPORTED_MEDIA_TYPE]: '不支持的请求内容类型',
  [ErrorCode.RATE_LIMITED]: '操作过于频繁，请稍后再试',
  [ErrorCode.RESOURCE_NOT_FOUND]: '内容不存在或已删除',
  [ErrorCode.CONFLICT]: '当前状态不允许该操作',
  [ErrorCode.DEV_ONLY]: '该接口仅在沙箱模式下可用',
};
