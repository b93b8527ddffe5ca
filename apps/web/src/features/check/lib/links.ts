import { paths } from '../../../config/paths';

/** /check?orderId=… — the check's progress, payment or report on the check page. */
export function checkPagePath(orderId: string): string {
  return `${paths.check}?${new URLSearchParams({ orderId }).toString()}`;
}

/** /check/report/:orderId — the report on a page of its own. */
export function checkReportPath(orderId: string): string {
  return `${paths.check}/report/${encodeURIComponent(orderId)}`;
}
