import { describe, expect, it } from 'vitest';
import * as contracts from '../src/index.ts';
import {
  DEFAULT_LOGIN_TYPE,
  IMAGE_BREAKPOINTS,
  LOGIN_TYPES,
  MESSAGES,
  PAGINATION_TEXT,
  PHONE_PATTERN,
  RETRY_STATUSES,
  Z_INDEX,
} from '../src/index.ts';

describe('constants (spec §9)', () => {
  it('exposes the spec values exactly', () => {
    expect(contracts.REQUEST_TIMEOUT_MS).toBe(30_000);
    expect(contracts.TOAST_DURATION_MS).toBe(3_000);
    expect(contracts.TERMINAL).toBe('PC');
    expect(contracts.REQUEST_HEADERS).toEqual({ token: 'token', terminal: 'terminal' });
    expect(contracts.TOKEN_COOKIE_NAME).toBe('token');
    expect(contracts.TOKEN_COOKIE_DAYS).toBe(7);
    expect(contracts.STATUS_POLL_INTERVAL_MS).toBe(3_000);
    expect(contracts.QR_REFRESH_AFTER_POLLS).toBe(100);
    expect(contracts.SMS_COUNTDOWN_SECONDS).toBe(60);
    expect(contracts.AFTER_LOGIN_DELAY_MS).toBe(1_000);
    expect(contracts.DIALOG_CLOSE_DELAY_MS).toBe(300);
    expect([contracts.PASSWORD_MIN, contracts.PASSWORD_MAX]).toEqual([6, 50]);
    expect(RETRY_STATUSES).toEqual([408, 409, 425, 429, 500, 502, 503, 504]);
    expect(contracts.RETRY_LIMIT).toBe(1);
    expect(contracts.INACTIVITY_CLOSE_MONTHS).toBe(12);
    expect(contracts.RELOAD_GUARD_TTL_MS).toBe(10_000);
    expect(contracts.CURRENCY).toBe('CNY');
    expect(contracts.DEFAULT_LOCALE).toBe('zh-CN');
    expect(contracts.CHINESE_NUMERAL_LIMIT).toBe(100_000_000_000);
    expect(contracts.DEFAULT_DATE_FORMAT).toBe('YYYYMMDD');
    expect(PAGINATION_TEXT).toBe('共 {0} 条');
    expect(IMAGE_BREAKPOINTS).toEqual({ xs: 320, sm: 640, md: 768, lg: 1024, xl: 1280, xxl: 1536 });
    expect(contracts.IMAGE_DENSITIES).toEqual([1, 2]);
    expect(Z_INDEX).toEqual({ popup: 1000, message: 5000 });
    expect(contracts.API_PREFIX).toBe('/kyfw/web/v1');
    expect(contracts.LOGIN_STATUS_LOGGED_IN).toBe('1');
    expect(contracts.SEND_CHECK_CODE_TYPE).toBe('2');
  });

  it('defaults the login tab to wx, one of the two tabs, remembered under loginType', () => {
    expect(DEFAULT_LOGIN_TYPE).toBe('wx');
    expect(LOGIN_TYPES).toContain(DEFAULT_LOGIN_TYPE);
    expect(contracts.LOGIN_TYPE_STORAGE_KEY).toBe('loginType');
  });

  it('phone pattern accepts 1[3-9] + 9 digits only', () => {
    expect(PHONE_PATTERN.test('13800138000')).toBe(true);
    expect(PHONE_PATTERN.test('19912345678')).toBe(true);
    expect(PHONE_PATTERN.test('12800138000')).toBe(false);
    expect(PHONE_PATTERN.test('1380013800')).toBe(false);
    expect(PHONE_PATTERN.test('138001380001')).toBe(false);
    expect(PHONE_PATTERN.test('23800138000')).toBe(false);
  });

  it('carries the shared Chinese messages verbatim', () => {
    expect(MESSAGES).toEqual({
      WELCOME: '欢迎登录！',
      SMS_SENT: '短信发送成功',
      BIND_SUCCESS: '绑定成功',
      BIND_SUCCESS_EXCLAIM: '绑定成功！',
      LOGIN_REQUIRED: '请先登录',
      LOGIN_REQUIRED_EXCLAIM: '请先登录！',
      LOADING_DEFAULT: '提交中',
    });
  });

  it('exports no default bind password (an empty bind password sets none)', () => {
    const names = Object.keys(contracts).filter((name) => /DEFAULT.*PASS|PASS.*DEFAULT/i.test(name));
    expect(names).toEqual([]);
    const sixDigitStrings = Object.values(contracts).filter(
      (v) => typeof v === 'string' && /^\d{6}$/.test(v),
    );
    expect(sixDigitStrings).toEqual([]);
  });
});
