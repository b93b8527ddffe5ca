/**
 * Business constants and limits of spec §9, plus the few fixed wire values of §3/§7 that web and
 * server must agree on. Values are exact; change them only with the spec.
 *
 * The spec's "default bind password" is deliberately absent: an empty bind password sets no
 * password at all, so there is no shared secret to leak (security decision, see the Foundation issue).
 */

/** Request timeout of the web request layer (spec §7: 30 seconds). */
export const REQUEST_TIMEOUT_MS = 30_000;

/** How long a toast stays visible (spec §2/§9: 3 seconds). */
export const TOAST_DURATION_MS = 3_000;

/** Value of the `terminal` request header (spec §7). */
export const TERMINAL = 'PC';

/** Names of the two headers every request carries (spec §7). */
export const REQUEST_HEADERS = { token: 'token', terminal: 'terminal' } as const;

/** Name of the session cookie holding the token (spec §3). */
export const TOKEN_COOKIE_NAME = 'token';

/** Lifetime of the token cookie in days (spec §3/§9). */
export const TOKEN_COOKIE_DAYS = 7;

/** Local-storage key remembering the last chosen login tab (spec §2). */
export const LOGIN_TYPE_STORAGE_KEY = 'loginType';

/** The two login tabs: WeChat QR and account (phone) + password. */
export const LOGIN_TYPES = ['wx', 'account'] as const;
export type LoginType = (typeof LOGIN_TYPES)[number];

/** The login tab shown when none is remembered (spec §2/§3: wx). */
export const DEFAULT_LOGIN_TYPE = 'wx' satisfies LoginType;

/** `loginStatus` value meaning the QR was scanned and the user is logged in (spec §3). */
export const LOGIN_STATUS_LOGGED_IN = '1';

/** The `type` sent with /sendCheckCode (spec §7). */
export const SEND_CHECK_CODE_TYPE = '2';

/** Interval between login-status / bind-status polls (spec §4: 3 seconds). */
export const STATUS_POLL_INTERVAL_MS = 3_000;

/** Polls without success after which a new QR code is fetched (spec §4). */
export const QR_REFRESH_AFTER_POLLS = 100;

/** SMS resend countdown on the send-code button, in seconds (spec §4). */
export const SMS_COUNTDOWN_SECONDS = 60;

/** Delay after a successful login or bind before reloading the user info (spec §4: 1 second). */
export const AFTER_LOGIN_DELAY_MS = 1_000;

/** Delay before the login dialog closes after following register / forgot-password (spec §2). */
export const DIALOG_CLOSE_DELAY_MS = 300;

/** Minimum password length in characters (spec §5). */
export const PASSWORD_MIN = 6;

/** Maximum password length in characters (spec §5). */
export const PASSWORD_MAX = 50;

/** Mainland mobile number: 11 digits, 1 then 3–9 (spec §5). */
export const PHONE_PATTERN = /^1[3-9]\d{9}$/;

/** HTTP statuses on which idempotent requests are retried (spec §7). */
export const RETRY_STATUSES = [408, 409, 425, 429, 500, 502, 503, 504] as const;

/** How many times such a request is retried (spec §7: once). */
export const RETRY_LIMIT = 1;

/** Months without login after which an account may be closed (spec §1). */
export const INACTIVITY_CLOSE_MONTHS = 12;

/** TTL of the page-reload guard (spec §2: 10 seconds). */
export const RELOAD_GUARD_TTL_MS = 10_000;

/** Default locale of the product and its formatting helpers. */
export const DEFAULT_LOCALE = 'zh-CN';

/** Default currency of the formatting helpers (spec §9). */
export const CURRENCY = 'CNY';

/** Exclusive bound of the integer part accepted by the Chinese capital-numeral conversion (spec §9: 100 billion). */
export const CHINESE_NUMERAL_LIMIT = 100_000_000_000;

/** Default pattern of `formatDate` (spec §9). */
export const DEFAULT_DATE_FORMAT = 'YYYYMMDD';

/** Pagination total text; `{0}` is the total (spec §9). */
export const PAGINATION_TEXT = '共 {0} 条';

/** Responsive image breakpoints in CSS pixels (spec §9). */
export const IMAGE_BREAKPOINTS = { xs: 320, sm: 640, md: 768, lg: 1024, xl: 1280, xxl: 1536 } as const;

/** Pixel densities images are produced for (spec §9). */
export const IMAGE_DENSITIES = [1, 2] as const;

/** Z-index bases (spec §9). */
export const Z_INDEX = { popup: 1000, message: 5000 } as const;

/** User-facing Chinese messages shared by web and server (spec §2, §4, §8). Texts are exact. */
export const MESSAGES = {
  /** After a successful login (spec §4). */
  WELCOME: '欢迎登录！',
  /** After /sendCheckCode succeeded (spec §8). */
  SMS_SENT: '短信发送成功',
  /** After binding a phone number (spec §8). */
  BIND_SUCCESS: '绑定成功',
  /** After binding WeChat (spec §8). */
  BIND_SUCCESS_EXCLAIM: '绑定成功！',
  /** Protected route visited while logged out (spec §2). */
  LOGIN_REQUIRED: '请先登录',
  /** Guarded action attempted while logged out (spec §4). */
  LOGIN_REQUIRED_EXCLAIM: '请先登录！',
  /** Default text of the global loading overlay (spec §2). */
  LOADING_DEFAULT: '提交中',
} as const;

/**
 * The comparison library's collections (set at import: `npm run library:import -- --collection <c>`;
 * papers users opted in are `user`). Each check goods names the collections it compares against.
 */
export const LIBRARY_COLLECTIONS = ['journal', 'thesis', 'web', 'user'] as const;
export type LibraryCollection = (typeof LIBRARY_COLLECTIONS)[number];

/** Their names as pages and reports print them. */
export const LIBRARY_COLLECTION_NAMES: Readonly<Record<LibraryCollection, string>> = {
  journal: '学术期刊库',
  thesis: '学位论文库',
  web: '互联网资源库',
  user: '用户授权论文库',
};

/** What a source without a title shows (never a guess from its first characters). */
export const UNTITLED_SOURCE = '题名缺失';
