import { request } from '../../../lib/request';

export interface Captcha {
  captchaId: string;
  /** An SVG image as a data URL. */
  image: string;
}

/** POST /captcha: a new picture check (图形验证码) for /sendCheckCode. Silent: the caller shows the field. */
export function getCaptcha() {
  return request<Captcha>('/captcha', { silent: true });
}
