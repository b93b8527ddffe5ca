/**
 * User-visible Chinese texts of the accounts module that are not the error catalogue's defaults
 * (packages/contracts/src/errors.ts) or the spec's shared messages (MESSAGES in contracts).
 */

/** "30 秒" / "5 分钟" / "3 小时", rounded up, for "please retry in …". */
export function formatWait(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds <= 60) return `${seconds}秒`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return `${minutes}分钟`;
  return `${Math.ceil(minutes / 60)}小时`;
}

export const TEXTS = {
  /** A locked account's login: that it is locked and how to appeal (the footer's phone when set). */
  accountLocked: (phone: string) =>
    phone
      ? `该账号已被锁定，暂时无法登录。如有疑问，请致电客服 ${phone} 申诉，并提供账号绑定的手机号`
      : '该账号已被锁定，暂时无法登录。如有疑问，请通过页面底部的联系方式联系客服申诉',
  smsTooFrequent: (wait: string) => `验证码发送过于频繁，请${wait}后再试`,
  smsLimitReached: (wait: string) => `验证码发送次数已达上限，请${wait}后再试`,
  smsAddressFailures: (wait: string) => `该网络的验证失败次数过多，请${wait}后再试`,
  captchaExpired: '图形验证码已失效，请重新输入',
  captchaLimit: '获取图形验证码过于频繁，请稍后再试',
  deletionPasswordWrong: '登录密码错误',
  smsCodeWrong: (left: number) => `验证码错误，还可尝试${left}次`,
  smsCodeExpired: '验证码已过期，请重新获取',
  smsCodeMissing: '验证码已失效，请重新获取',
  loginThrottled: (wait: string) => `登录失败次数较多，请${wait}后再试`,
  loginLocked: (wait: string) => `登录失败次数过多，已暂时锁定，请${wait}后再试`,
  passwordChanged: '密码修改成功，请牢记新密码',
  passwordReset: '密码重置成功，请使用新密码登录',
  registered: '注册成功',
  profileSaved: '保存成功',
  loggedOut: '已退出登录',
  accountDeleted: '账号已注销',
  qrLimit: '获取二维码过于频繁，请稍后再试',
  queryPhoneLimit: '查询过于频繁，请稍后再试',
  exportFileName: '我的数据.json',
  noticeSmsPurpose: 'inactivity_notice',
} as const;
