import { useParams } from 'react-router';
import { CommissionConsolePage } from '../../commission';
import { AuditPage } from './audit-page';
import { ConsoleLayout } from './console-layout';
import { ConsoleLogin } from './console-login';
import { DashboardPage } from './dashboard-page';
import { OfflinePage } from './offline-page';
import { OrdersPage } from './orders-page';

const PAGES: Record<string, () => React.JSX.Element> = {
  '': DashboardPage,
  orders: OrdersPage,
  offline: OfflinePage,
  audit: AuditPage,
  commission: CommissionConsolePage,
};

/**
 * Everything under /admin/*, as one lazily loaded chunk. The public router carries a single route
 * entry for it and the pages are chosen here (no descendant <Routes>, which would add the router's
 * matching code to the public site's shared chunk).
 */
export function ConsoleApp() {
  const rest = (useParams()['*'] ?? '').replace(/\/$/, '');
  if (rest === 'login') return <ConsoleLogin />;
  const Page = PAGES[rest] ?? DashboardPage;
  return (
    <ConsoleLayout>
      <Page />
    </ConsoleLayout>
  );
}
