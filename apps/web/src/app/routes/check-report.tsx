import { useParams } from 'react-router';
import { CheckReportPage } from '../../features/check';

/** /check/report/:orderId: the web report on a page of its own (login required). */
export default function CheckReportRoute() {
  const { orderId = '' } = useParams();
  return <CheckReportPage orderId={orderId} />;
}
