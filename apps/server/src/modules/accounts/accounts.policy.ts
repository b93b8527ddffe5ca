/**
 * The numbers of the accounts module in one place: lifetimes, limits, throttling. The spec fixes the
 * 7-day token (§9), the 60-second SMS countdown (§4) and the 12-month inactivity rule (§1); the
 * issue fixes the SMS code rules and sending limits; the rest are ours.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Session lifetime: the token cookie lives 7 days (spec §3/§9); the server-side session the same. */
export const SESSION_TTL_MS = 7 * DAY;

/** SMS check codes: valid 5 minutes, single use, at most 5 wrong tries. */
export const SMS_CODE_TTL_MS = 5 * MINUTE;
export const SMS_CODE_MAX_ATTEMPTS = 5;

/** A sending-limit window: at most `max` codes per `windowMs`. */
export interface SendLimit {
  windowMs: number;
  max: number;
  /**
   * Counts only the codes of the same purpose (the spec's type: 1 register, 2 bind, 3 reset, 4
   * deletion). Otherwise every code counts, whatever its purpose.
   */
  perPurpose?: boolean;
}

/**
 * Per phone number (accounts README, "SMS sending limits"):
 * - one code a minute **per purpose** — the resend interval behind the web's 60 s countdown, so a
 *   register code does not keep the same phone from getting a reset code right after;
 * - 5 an hour and 10 a day **for all purposes together** — cycling the type never buys more codes,
 *   which protects the phone's owner from being flooded and us from paying for it.
 */
export const SMS_PHONE_LIMITS: readonly SendLimit[] = [
  { windowMs: MINUTE, max: 1, perPurpose: true },
  { windowMs: HOUR, max: 5 },
  { windowMs: DAY, max: 10 },
];

/**
 * Per client address (issue 22, decision 0030): students share campus and dorm addresses, so an
 * address is not limited like a phone. Its sends only have a flood ceiling sized for a campus
 * (SMS_IP_MAX_PER_MINUTE / _HOUR / _DAY, defaults 20 / 300 / 1000: a class of 40+ gets its codes
 * within minutes); past SMS_IP_CAPTCHA_AFTER sends in an hour (default 3) every further send needs
 * a picture check (captcha.ts); and what blocks an address is failures — wrong SMS codes and wrong
 * picture checks, SMS_IP_MAX_FAILURES_PER_HOUR (default 30) in an hour block its sends for the rest
 * of that hour. The minute window counts per purpose, the hour and the day all purposes.
 */
export function smsIpLimits(perMinute: number, perHour: number, perDay: number): SendLimit[] {
  return [
    { windowMs: MINUTE, max: perMinute, perPurpose: true },
    { windowMs: HOUR, max: perHour },
    { windowMs: DAY, max: perDay },
  ];
}

/** How long sends and failures of an address are counted for the picture check and the failure block. */
export const SMS_IP_FAILURE_WINDOW_MS = HOUR;

/** Picture checks: valid 5 minutes, single use; an address may ask for 30 a minute. */
export const CAPTCHA_TTL_MS = 5 * MINUTE;
export const CAPTCHA_LENGTH = 4;
export const CAPTCHA_ISSUE_LIMIT: SendLimit = { windowMs: MINUTE, max: 30 };

/**
 * Phone + password login. Failures are counted over a 15-minute window since the last success.
 * Per phone: from the 3rd failure each next try must wait (10 s, then 30 s); the 5th locks the phone
 * for 15 minutes. Per IP (many phones from one address): from 10 failures a 10 s wait, from 20 a
 * 15-minute lock. Locked tries are refused without checking the password and do not extend the lock.
 */
export const LOGIN_WINDOW_MS = 15 * MINUTE;
export const LOGIN_PHONE_DELAYS_MS: Readonly<Record<number, number>> = { 3: 10 * SECOND, 4: 30 * SECOND };
export const LOGIN_PHONE_LOCK_AFTER = 5;
export const LOGIN_IP_SLOW_AFTER = 10;
export const LOGIN_IP_DELAY_MS = 10 * SECOND;
export const LOGIN_IP_LOCK_AFTER = 20;
export const LOGIN_LOCK_MS = 15 * MINUTE;

/**
 * WeChat QR codes live 5 minutes: the web fetches a new one after 100 polls of 3 s (spec §4), so a
 * QR it still shows is always valid. A scanned login may be picked up for 2 more minutes.
 */
export const WECHAT_QR_TTL_SECONDS = 300;
export const WECHAT_LOGIN_CLAIM_GRACE_MS = 2 * MINUTE;

/** QR codes per client IP (each one is a call to the WeChat API, which has a daily quota). */
export const QR_CODE_LIMIT: SendLimit = { windowMs: 10 * MINUTE, max: 30 };

/** /websiteUser/queryIsUsePhone per client IP: enough for a person, too slow to enumerate. */
export const QUERY_PHONE_LIMITS: readonly SendLimit[] = [
  { windowMs: MINUTE, max: 10 },
  { windowMs: DAY, max: 100 },
];

/** The cookie binding a login QR to its browser; lives a day, renewed with each QR. */
export const BROWSER_KEY_COOKIE = 'kyfw_qr';
export const BROWSER_KEY_MAX_AGE_SECONDS = 24 * 60 * 60;

/**
 * Inactivity (spec §1: an account with no login for 12 months may be closed). A notice goes out
 * 30 days before: at 11 months without login; the account is closed when 12 months are reached and
 * the notice is at least 30 days old, provided there was no login since.
 */
export const INACTIVITY_NOTICE_LEAD_DAYS = 30;

/** How long housekeeping keeps finished rows (codes, attempts, QR sessions, events, rate events). */
export const ACCOUNT_ROWS_RETENTION_MS = 30 * DAY;

export { DAY as DAY_MS, HOUR as HOUR_MS, MINUTE as MINUTE_MS, SECOND as SECOND_MS };
