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
  /** An upload that would take the account's stored files past ACCOUNT_STORAGE_QUOTA_MB; nothing stored (the message says how much is used and what to do). */
  UPLOAD_QUOTA_EXCEEDED: 1013,

  // 2xxx accounts (apps/server/src/modules/accounts, docs/api/accounts.md)
  /** /sendCheckCode: the per-phone or per-IP sending limit (1/min, 5/h, 10/day) is reached; the message says how long to wait. */
  SMS_SEND_LIMITED: 2001,
  /** /sendCheckCode: the SMS provider refused or failed; nothing was sent, the user may retry. */
  SMS_SEND_FAILED: 2002,
  /** A check code does not match the latest code sent to this phone for this purpose (a wrong try is counted). */
  SMS_CODE_WRONG: 2003,
  /** No usable check code: none was sent, it expired (5 minutes), was used, or a newer one replaced it. */
  SMS_CODE_EXPIRED: 2004,
  /** The code had 5 wrong tries and is void; a new one must be requested. */
  SMS_CODE_TOO_MANY_TRIES: 2005,
  /** /login: phone or password wrong (one message for both, so a phone's registration is not revealed). */
  LOGIN_FAILED: 2006,
  /** /login: several recent failures for this phone or IP; the next try must wait the seconds given in the message. */
  LOGIN_THROTTLED: 2007,
  /** /login: too many failures for this phone or IP; login is locked for the minutes given in the message. */
  LOGIN_LOCKED: 2008,
  /** /addUserByPhone with a valid code for a phone that already has an account. */
  PHONE_REGISTERED: 2009,
  /** /resetPassword with a valid code for a phone without an account. */
  PHONE_NOT_REGISTERED: 2010,
  /** /websiteUser/bindPhoneNumber with a valid code for a phone bound to another account. */
  PHONE_BOUND_ELSEWHERE: 2011,
  /** /websiteUser/bindPhoneNumber or /sendCheckCode type 2 when the account already has a phone. */
  ALREADY_HAS_PHONE: 2012,
  /** WeChat binding: the scanned WeChat account is bound to another account (answered when polling the bind). */
  WECHAT_BOUND_ELSEWHERE: 2013,
  /** /weixin/wx/getBindingRCode when the account already has WeChat bound. */
  ALREADY_HAS_WECHAT: 2014,
  /** /websiteUser/passwordChange: the old password is wrong. */
  OLD_PASSWORD_WRONG: 2015,
  /** /websiteUser/passwordChange on an account that has a phone but never set a password (decision 0005). */
  NO_PASSWORD_SET: 2016,
  /** The action needs a bound phone (password change, SMS deletion, /sendCheckCode type 4) and the account has none. */
  PHONE_NOT_BOUND: 2017,
  /** /sendCheckCode type 4: the number is not the phone bound to the logged-in account. */
  PHONE_MISMATCH: 2018,
  /** Deletion by WeChat re-scan: the QR was scanned by a WeChat account other than the bound one. */
  WECHAT_MISMATCH: 2019,
  /** WeChat deletion QR asked for by an account without WeChat bound. */
  WECHAT_NOT_BOUND: 2020,
  /** The WeChat platform (QR creation) failed or is not reachable. */
  WECHAT_UNAVAILABLE: 2021,
  /** /websiteUser/passwordChange: the new password equals the old one. */
  PASSWORD_UNCHANGED: 2022,
  /** Login (password, WeChat QR): an operator has locked the account; the message says how to appeal. */
  ACCOUNT_LOCKED: 2023,
  /**
   * /sendCheckCode from an address that has sent many codes this hour: a picture check
   * (图形验证码, /captcha) must come with it. The web shows one and sends again.
   */
  CAPTCHA_REQUIRED: 2024,
  /** The picture check was wrong, used or expired: a new one is needed. */
  CAPTCHA_WRONG: 2025,

  // 3xxx orders and payment (apps/server/src/modules/orders, docs/api/orders.md)
  /** An order names goods that do not exist, are inactive, or belong to another service. */
  GOODS_NOT_FOUND: 3001,
  /** The quantity (e.g. characters) is outside the goods' min/max; the message gives the range. */
  QUANTITY_OUT_OF_RANGE: 3002,
  /** Pay/cancel on an order that is already paid (or being processed, done, refunded). */
  ORDER_ALREADY_PAID: 3003,
  /** Pay on an order whose payment time (ORDER_EXPIRE_MINUTES) is over; a new order is needed. */
  ORDER_EXPIRED: 3004,
  /** Pay on an order the user cancelled. */
  ORDER_CANCELLED: 3005,
  /** WeChat Pay / Alipay failed or is unreachable while creating or closing a QR code; nothing changed, retry later. */
  PAYMENT_UNAVAILABLE: 3006,
  /** /order/cancel on an order that is not pending payment. */
  ORDER_NOT_CANCELLABLE: 3007,
  /** /order/delete on a pending or in-service order (only finished, cancelled, expired or refunded orders can be hidden). */
  ORDER_NOT_DELETABLE: 3008,
  /** Offline payment asked for while no bank-transfer account is configured. */
  OFFLINE_PAYMENT_DISABLED: 3009,
  /** Offline proof upload: missing file, or content that is not a PNG/JPEG/WebP image or a PDF (sniffed, not by name). */
  OFFLINE_PROOF_INVALID: 3010,
  /** Offline proof upload larger than OFFLINE_PROOF_MAX_BYTES. */
  OFFLINE_PROOF_TOO_LARGE: 3011,
  /** A proof for this order is already waiting for an operator (or QR payment asked for meanwhile). */
  OFFLINE_PROOF_PENDING: 3012,
  /** /invoice/create names an order that is not the user's own paid (unrefunded) order. */
  INVOICE_ORDER_INVALID: 3013,
  /** /invoice/create names an order that is already on an invoice. */
  INVOICE_ORDER_INVOICED: 3014,
  /** /invoice/download before the invoice is issued. */
  INVOICE_NOT_ISSUED: 3015,
  /** /address/save beyond the per-account address limit (20). */
  ADDRESS_LIMIT_REACHED: 3016,
  /** /order/delivery on an order that cannot be shipped (not paid, cancelled, refunded) or already shipped. */
  DELIVERY_NOT_ALLOWED: 3017,
  /** Operator refund larger than what is left of the payment, or of an unpaid order. */
  REFUND_NOT_ALLOWED: 3018,
  /** The platform refused or failed a refund; the refund is recorded as failed/pending with the reason. */
  REFUND_FAILED: 3019,
  /** Operator API: OPERATOR_TOKEN unset, or the x-operator-token header is missing or wrong. */
  OPERATOR_UNAUTHORIZED: 3020,

  // 4xxx paper check and files (apps/server/src/modules/check, docs/api/check.md)
  /** /freeCheck/uploadFile without a file part (or an empty file). */
  CHECK_FILE_MISSING: 4001,
  /** Upload over CHECK_UPLOAD_MAX_MB, or text over the extraction limits (pages, characters, zip bomb); nothing stored. */
  CHECK_FILE_TOO_LARGE: 4002,
  /** The content is not a .docx/.doc/.pdf/.txt (sniffed by content: a renamed .exe, an image, RTF, a spreadsheet). */
  CHECK_FILE_UNSUPPORTED: 4003,
  /** The document is password-protected (.docx, .doc or PDF). */
  CHECK_FILE_ENCRYPTED: 4004,
  /** A PDF without a text layer (scanned pages). */
  CHECK_FILE_SCANNED: 4005,
  /** The file is damaged, truncated or took too long to parse. */
  CHECK_FILE_BROKEN: 4006,
  /** The document parsed fine but holds no text to check. */
  CHECK_FILE_EMPTY: 4007,
  /** /freeCheck/payFee when no free check applies (no unused free_check, over the free cap, or a paid order). */
  CHECK_FREE_UNAVAILABLE: 4008,
  /** /freeCheck/report or /downloadReport before the check has finished (the message says how far it is). */
  CHECK_NOT_READY: 4009,
  /** /freeCheck/deleteOrder while the check is queued or running. */
  CHECK_IN_PROGRESS: 4010,
  /** /freeCheck/retryCheck on a check that did not fail. */
  CHECK_NOT_RETRYABLE: 4011,
  /** /freeCheck/verify with an unknown report number or a code that does not match (or a tampered record). */
  REPORT_NOT_GENUINE: 4012,
  /** The check needs payment first (/freeCheck/payFee on a paid-order check still pending payment). */
  CHECK_PAYMENT_REQUIRED: 4013,
  /**
   * /freeCheck/revise/recheck past today's live re-checks of the check or of the account
   * (RECHECK_PER_ORDER_PER_DAY / RECHECK_PER_ACCOUNT_PER_DAY); the message says which and when.
   */
  CHECK_RECHECK_LIMIT: 4014,

  // 6xxx AI writing (apps/server/src/modules/writing, docs/api/writing.md)
  /** /aiWriting/outline with no free outline left on the account and the full text not paid. */
  WRITING_OUTLINE_PAYMENT_REQUIRED: 6001,
  /** A step out of order: an outline before a title, an order before an outline, a download before the text is written. */
  WRITING_NOT_READY: 6002,
  /** The LLM timed out, was unavailable or kept answering nonsense; nothing was charged or changed. */
  WRITING_AI_FAILED: 6003,
  /** The writing was ordered (or is being written): its title and outline no longer change. */
  WRITING_LOCKED: 6004,
  /** The draft's free section revisions are used; the unlimited-revisions add-on lifts the limit. */
  WRITING_REVISIONS_USED_UP: 6005,
  /**
   * A free AI call (/aiWriting/title, /outline, /abstract) over a daily quota: the account's, the
   * client address's, or the site's daily token budget (decision 0028). The message says when to
   * try again (明天 00:00); nothing was asked of the model or changed. Per-minute limits are 1009.
   */
  AI_QUOTA_EXHAUSTED: 6090,

  // 7xxx 降重 and 降AIGC (apps/server/src/modules/reduction, docs/api/reduction.md)
  /** The text to rewrite is empty, too short or over the goods' limit (the message says which). */
  REDUCTION_BAD_INPUT: 7001,
  /** /txtWeightResult or /download before the rewrite has finished (the message says how far it is). */
  REDUCTION_NOT_READY: 7002,
  /** /delReport while the text is being rewritten. */
  REDUCTION_IN_PROGRESS: 7003,
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
  [ErrorCode.UPLOAD_QUOTA_EXCEEDED]: '账户的文件存储空间已满，请删除不再需要的记录后再上传',
  [ErrorCode.SMS_SEND_LIMITED]: '验证码发送过于频繁，请稍后再试',
  [ErrorCode.SMS_SEND_FAILED]: '短信发送失败，请稍后再试',
  [ErrorCode.SMS_CODE_WRONG]: '验证码错误',
  [ErrorCode.SMS_CODE_EXPIRED]: '验证码已失效，请重新获取',
  [ErrorCode.SMS_CODE_TOO_MANY_TRIES]: '验证码错误次数过多，请重新获取',
  [ErrorCode.LOGIN_FAILED]: '手机号或密码错误',
  [ErrorCode.LOGIN_THROTTLED]: '登录失败次数较多，请稍后再试',
  [ErrorCode.LOGIN_LOCKED]: '登录失败次数过多，已暂时锁定，请稍后再试',
  [ErrorCode.PHONE_REGISTERED]: '该手机号已注册，请直接登录',
  [ErrorCode.PHONE_NOT_REGISTERED]: '该手机号尚未注册',
  [ErrorCode.PHONE_BOUND_ELSEWHERE]: '该手机号已绑定其他账号',
  [ErrorCode.ALREADY_HAS_PHONE]: '当前账号已绑定手机号',
  [ErrorCode.WECHAT_BOUND_ELSEWHERE]: '该微信已绑定其他账号',
  [ErrorCode.ALREADY_HAS_WECHAT]: '当前账号已绑定微信',
  [ErrorCode.OLD_PASSWORD_WRONG]: '原密码错误',
  [ErrorCode.NO_PASSWORD_SET]: '当前账号尚未设置密码，请通过"忘记密码"设置',
  [ErrorCode.PHONE_NOT_BOUND]: '请先绑定手机号',
  [ErrorCode.PHONE_MISMATCH]: '请输入当前账号绑定的手机号',
  [ErrorCode.WECHAT_MISMATCH]: '请使用当前账号绑定的微信扫码确认',
  [ErrorCode.WECHAT_NOT_BOUND]: '当前账号未绑定微信',
  [ErrorCode.WECHAT_UNAVAILABLE]: '微信服务暂时不可用，请稍后再试',
  [ErrorCode.CAPTCHA_REQUIRED]: '请输入图形验证码',
  [ErrorCode.CAPTCHA_WRONG]: '图形验证码错误，请重新输入',
  [ErrorCode.PASSWORD_UNCHANGED]: '新密码不能与原密码相同',
  [ErrorCode.ACCOUNT_LOCKED]: '该账号已被锁定，暂时无法登录。如有疑问请联系客服申诉',
  [ErrorCode.GOODS_NOT_FOUND]: '商品不存在或已下架',
  [ErrorCode.QUANTITY_OUT_OF_RANGE]: '购买数量超出允许范围',
  [ErrorCode.ORDER_ALREADY_PAID]: '订单已支付，请勿重复支付',
  [ErrorCode.ORDER_EXPIRED]: '订单已过期，请重新下单',
  [ErrorCode.ORDER_CANCELLED]: '订单已取消，请重新下单',
  [ErrorCode.PAYMENT_UNAVAILABLE]: '支付服务暂时不可用，请稍后再试',
  [ErrorCode.ORDER_NOT_CANCELLABLE]: '只有待支付的订单可以取消',
  [ErrorCode.ORDER_NOT_DELETABLE]: '待支付或服务进行中的订单不能删除',
  [ErrorCode.OFFLINE_PAYMENT_DISABLED]: '暂不支持线下付款，请使用微信或支付宝支付',
  [ErrorCode.OFFLINE_PROOF_INVALID]: '付款凭证须为 JPG、PNG、WebP 图片或 PDF 文件',
  [ErrorCode.OFFLINE_PROOF_TOO_LARGE]: '付款凭证文件过大',
  [ErrorCode.OFFLINE_PROOF_PENDING]: '线下付款凭证正在审核中，请耐心等待',
  [ErrorCode.INVOICE_ORDER_INVALID]: '所选订单不可开票（仅限本人已支付的订单）',
  [ErrorCode.INVOICE_ORDER_INVOICED]: '所选订单已申请过发票',
  [ErrorCode.INVOICE_NOT_ISSUED]: '发票尚未开具，请稍后再试',
  [ErrorCode.ADDRESS_LIMIT_REACHED]: '收货地址数量已达上限',
  [ErrorCode.DELIVERY_NOT_ALLOWED]: '该订单当前不能设置快递配送',
  [ErrorCode.REFUND_NOT_ALLOWED]: '退款金额超过可退金额或订单未支付',
  [ErrorCode.REFUND_FAILED]: '退款失败，请稍后再试',
  [ErrorCode.OPERATOR_UNAUTHORIZED]: '运营接口凭证无效',
  [ErrorCode.CHECK_FILE_MISSING]: '请选择要检测的论文文件',
  [ErrorCode.CHECK_FILE_TOO_LARGE]: '文件过大或内容过多，超出检测限制',
  [ErrorCode.CHECK_FILE_UNSUPPORTED]: '不支持的文件格式，请上传 .docx、.doc、.pdf 或 .txt 文件',
  [ErrorCode.CHECK_FILE_ENCRYPTED]: '文件已加密，请去除密码后重新上传',
  [ErrorCode.CHECK_FILE_SCANNED]:
    '未能从 PDF 中提取到文字，文件可能是扫描件，请上传带文字层的 PDF 或 Word 文档',
  [ErrorCode.CHECK_FILE_BROKEN]: '文件已损坏或格式不正确，无法读取，请重新导出后上传',
  [ErrorCode.CHECK_FILE_EMPTY]: '文件中没有可检测的文字',
  [ErrorCode.CHECK_FREE_UNAVAILABLE]: '当前订单不能使用免费查重',
  [ErrorCode.CHECK_NOT_READY]: '检测尚未完成，请稍后查看报告',
  [ErrorCode.CHECK_IN_PROGRESS]: '检测进行中，完成后才能删除',
  [ErrorCode.CHECK_NOT_RETRYABLE]: '只有检测失败的订单可以重新检测',
  [ErrorCode.REPORT_NOT_GENUINE]: '报告编号或验证码不正确，无法确认报告真伪',
  [ErrorCode.CHECK_PAYMENT_REQUIRED]: '请先完成支付',
  [ErrorCode.CHECK_RECHECK_LIMIT]: '今日实时复检次数已用完，请明天再试',
  [ErrorCode.WRITING_OUTLINE_PAYMENT_REQUIRED]: '免费大纲次数已用完，请先购买全文后再生成大纲',
  [ErrorCode.WRITING_NOT_READY]: '请先完成上一步',
  [ErrorCode.WRITING_AI_FAILED]: 'AI 服务暂时不可用，请稍后再试（本次未扣费）',
  [ErrorCode.WRITING_LOCKED]: '论文已下单，题目和大纲不能再修改',
  [ErrorCode.WRITING_REVISIONS_USED_UP]: '免费修改次数已用完，购买“无限次修改”后可继续修改',
  [ErrorCode.AI_QUOTA_EXHAUSTED]: '今日免费AI生成次数已用完，请于明天 00:00 后再试',
  [ErrorCode.REDUCTION_BAD_INPUT]: '提交的文字不符合要求',
  [ErrorCode.REDUCTION_NOT_READY]: '改写尚未完成，请稍后查看',
  [ErrorCode.REDUCTION_IN_PROGRESS]: '正在改写，完成后才能删除',
};
