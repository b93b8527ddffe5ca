import { request } from '../../../lib/request';
import type { QrCode } from '../types';

/** POST /weixin/wx/getBindingRCode: a QR binding WeChat to the logged-in account. */
export function getBindingQrCode() {
  return request<QrCode>('/weixin/wx/getBindingRCode');
}
