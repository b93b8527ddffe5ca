import { staffCan } from '@kyfw/contracts';
import { Result, Spin } from 'antd';
import { Suspense } from 'react';
import { useParams } from 'react-router';
import { useStaff } from '../api/console-api';
import { findConsolePage } from '../pages';
import { consoleTexts } from '../texts';
import { ConsoleLayout } from './console-layout';
import { ConsoleLogin } from './console-login';

/**
 * Everything under /admin/*, as one lazily loaded chunk. The public router carries a single route
 * entry for it and the pages are chosen here from CONSOLE_PAGES (no descendant <Routes>, which
 * would add the router's matching code to the public site's shared chunk); each page is a lazy
 * chunk of its own.
 */
export function ConsoleApp() {
  const rest = (useParams()['*'] ?? '').replace(/\/$/, '');
  if (rest === 'login') return <ConsoleLogin />;
  return (
    <ConsoleLayout>
      <ConsolePageView rest={rest} />
    </ConsoleLayout>
  );
}

function ConsolePageView({ rest }: { rest: string }) {
  const staff = useStaff();
  const entry = findConsolePage(rest);
  if (!entry || (staff.data && !staffCan(staff.data.role, entry.permission))) {
    return <Result status="403" title={consoleTexts.forbiddenPage} />;
  }
  const Page = entry.page;
  return (
    <Suspense fallback={<Spin />}>
      <Page />
    </Suspense>
  );
}
