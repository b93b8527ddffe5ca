import { request } from '../../../lib/request';

/** POST /websiteUser/exportData: the account's data as a JSON file (blob + file name). */
export function exportMyData() {
  return request('/websiteUser/exportData', { responseType: 'blob' });
}
