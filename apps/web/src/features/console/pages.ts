import type { StaffPermission } from '@kyfw/contracts';
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import { consoleTexts } from './texts';

/** One page of the console: its address under /admin/, its menu entry, who sees it, its code. */
export interface ConsolePage {
  /** After /admin/ ('' is the dashboard); also matches deeper addresses (`orders` ← `orders/KY…`). */
  path: string;
  /** The menu entry. */
  label: string;
  /**
   * Who sees the entry: the roles holding this permission (packages/contracts staff-permissions.ts),
   * the one the page's main list needs on the server.
   */
  permission: StaffPermission;
  /** The page, loaded when first opened (a chunk of its own). */
  page: LazyExoticComponent<ComponentType>;
}

type Loader = () => Promise<Record<string, unknown>>;
/** A lazily loaded page from a module's named export. */
export const consolePage = (load: Loader, name: string): LazyExoticComponent<ComponentType> =>
  lazy(() => load().then((m) => ({ default: m[name] as ComponentType })));

const n = consoleTexts.nav;

/**
 * THE console's route list and menu, in menu order. Another feature adds its page with one line:
 *   { path: 'news', label: '资讯文章', permission: 'news.edit', page: consolePage(() => import('../news-admin'), 'NewsAdminPage') },
 * where features/news-admin is a folder of its own whose index.ts exports the page (keep console
 * pages out of a public feature's index, so the public site's chunks do not carry them). Inside,
 * import the console's helpers from '../console' (useStaff, consolePost, consoleTexts).
 */
export const CONSOLE_PAGES: readonly ConsolePage[] = [
  {
    path: '',
    label: n.dashboard,
    permission: 'console.enter',
    page: consolePage(() => import('./components/dashboard-page'), 'DashboardPage'),
  },
  {
    path: 'orders',
    label: n.orders,
    permission: 'orders.read',
    page: consolePage(() => import('./components/orders-page'), 'OrdersPage'),
  },
  {
    path: 'offline',
    label: n.offline,
    permission: 'payments.read',
    page: consolePage(() => import('./components/offline-page'), 'OfflinePage'),
  },
  {
    path: 'refunds',
    label: n.failedRefunds,
    permission: 'payments.read',
    page: consolePage(() => import('./components/failed-refunds-page'), 'FailedRefundsPage'),
  },
  {
    path: 'invoices',
    label: n.invoices,
    permission: 'payments.read',
    page: consolePage(() => import('./components/invoices-page'), 'InvoicesPage'),
  },
  {
    path: 'shipping',
    label: n.shipping,
    permission: 'deliveries.read',
    page: consolePage(() => import('./components/shipping-page'), 'ShippingPage'),
  },
  {
    path: 'users',
    label: n.users,
    permission: 'orders.read',
    page: consolePage(() => import('./components/ops-pages'), 'UsersPage'),
  },
  {
    path: 'jobs',
    label: n.jobs,
    permission: 'jobs.manage',
    page: consolePage(() => import('./components/ops-pages'), 'JobsPage'),
  },
  {
    path: 'llm',
    label: n.llmUsage,
    permission: 'aiUsage.read',
    page: consolePage(() => import('./components/ops-pages'), 'LlmUsagePage'),
  },
  {
    path: 'staff',
    label: n.staff,
    permission: 'staff.manage',
    page: consolePage(() => import('./components/staff-page'), 'StaffPage'),
  },
  {
    path: 'audit',
    label: n.audit,
    permission: 'audit.read',
    page: consolePage(() => import('./components/audit-page'), 'AuditPage'),
  },
  {
    path: 'commission',
    label: '委托办理',
    permission: 'commissions.fulfil',
    page: consolePage(() => import('../commission-admin'), 'CommissionConsolePage'),
  },
  {
    path: 'library',
    label: '比对库',
    permission: 'library.read',
    page: consolePage(() => import('../library-admin'), 'LibraryAdminPage'),
  },
  {
    path: 'news',
    label: '资讯与案例',
    permission: 'news.edit',
    page: consolePage(() => import('../news-admin'), 'NewsAdminPage'),
  },
  {
    path: 'goods',
    label: '商品与价格',
    permission: 'goods.read',
    page: consolePage(() => import('../goods-admin'), 'GoodsPage'),
  },
  {
    path: 'site',
    label: '站点信息',
    permission: 'site.edit',
    page: consolePage(() => import('../goods-admin'), 'SitePage'),
  },
];

/** The page of an address under /admin/ ('' when none matches: the dashboard). */
export function findConsolePage(rest: string): ConsolePage | undefined {
  let best: ConsolePage | undefined;
  for (const p of CONSOLE_PAGES) {
    const hit = p.path === rest || (p.path !== '' && rest.startsWith(`${p.path}/`));
    if (hit && (!best || p.path.length > best.path.length)) best = p;
  }
  return best ?? CONSOLE_PAGES.find((p) => p.path === '');
}
