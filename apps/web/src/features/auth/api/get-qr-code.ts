import { request } from '../../../lib/request';
import type { QrCode } from '../types';

/** POST /qrCode: a login QR for this browser (the server sets its kyfw_qr cookie). */
export function getLoginQrCode() {
  return request<QrCode>('/qrCode');
}
