import { useParams } from 'react-router';
import { CheckReportPage } from '../../features/check';
import { pageTitle } from '../texts';

/** /check/report/:orderId: the web report on a page of its own (login required). */
export default function CheckReportRoute() {
  const { orderId = '' } = useParams();
  return (
    <>
      <title>{pageTitle('论文检测报告')}</title>
      <CheckReportPage orderId={orderId} />
    </>
  );
}
