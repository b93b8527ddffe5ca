/**
 * THE staff roles of the operator console and what each may do — the one place they are written
 * (issue 26). A permission names the roles that hold it (as documenso's role → permission map);
 * every console endpoint names the one permission it needs (`permission` on its contract, as
 * immich's per-endpoint permission). From here:
 * - the server's staff routes refuse a role outside the endpoint's permission (1004, audited;
 *   apps/server/src/modules/console/staff-route.ts);
 * - the console's menu shows a page to the roles of its permission, and its buttons ask
 *   `staffCan(role, permission)` (apps/web features/console/pages.ts);
 * - the database's CHECK on staff_accounts.role and the db package's types agree with
 *   STAFF_ROLE_VALUES (packages/db/test/staff-roles.test.ts);
 * - the table in docs/api/operator.md is generated (`renderStaffPermissionTable`) and tested.
 *
 * A new role: add it to STAFF_ROLE_VALUES and STAFF_ROLE_TEXTS, to the permissions it holds, and
 * a migration that widens the CHECK; then regenerate the docs table.
 */

export const STAFF_ROLE_VALUES = ['admin', 'finance', 'fulfilment', 'editor', 'support'] as const;
export type StaffRoleName = (typeof STAFF_ROLE_VALUES)[number];

export const STAFF_ROLE_TEXTS: Record<StaffRoleName, string> = {
  admin: '管理员',
  finance: '财务',
  fulfilment: '履约',
  editor: '编辑',
  support: '客服',
};

/** Permission → the roles that hold it, in the order of STAFF_ROLE_VALUES. */
export const STAFF_PERMISSIONS = {
  /** Session (who am I, log out) and the dashboard: every role. */
  'console.enter': STAFF_ROLE_VALUES,
  /** Orders (search, detail) and finding a user by phone. */
  'orders.read': ['admin', 'finance', 'fulfilment', 'support'],
  /** Offline transfer proofs, failed refunds, invoices and their PDFs, the invoice setting: read. */
  'payments.read': ['admin', 'finance', 'support'],
  /** Confirm or reject a transfer, refund, retry or close a failed refund, issue and reverse invoices. */
  'payments.manage': ['admin', 'finance'],
  /** Orders with a courier address (to ship, shipped). */
  'deliveries.read': ['admin', 'fulfilment', 'support'],
  /** Record a shipment (carrier, tracking number). */
  'deliveries.ship': ['admin', 'fulfilment'],
  /** A user's account (lock state, free uses, export and deletion requests). */
  'users.read': ['admin', 'support'],
  /** Lock or unlock a user's account (support reads users only; decision 0021). */
  'users.lock': ['admin'],
  /** Failed and stuck jobs, stuck commission notices: list and run again. */
  'jobs.manage': ['admin'],
  /**
   * AI usage and the daily token budget: admin runs the site and sets the budget, finance pays the
   * model's bills; the others have no decision to make from it (decision 0028).
   */
  'aiUsage.read': ['admin', 'finance'],
  /** Staff accounts: list, create, change, reset two-step verification. */
  'staff.manage': ['admin'],
  /** The audit log. */
  'audit.read': ['admin'],
  /** Commissioned services (委托办理): quote, upload the report, mark done. */
  'commissions.fulfil': ['admin', 'fulfilment'],
  /**
   * The comparison library: statistics, imports, search. Support answers users' questions about
   * what their paper was compared with; the others have no business here (decision 0024).
   */
  'library.read': ['admin', 'support'],
  /** The comparison library: import, remove. */
  'library.write': ['admin'],
  /** Industry news articles, their images and the landing page's case photos. */
  'news.edit': ['admin', 'editor'],
  /** Site information and friend links. */
  'site.edit': ['admin', 'editor'],
  /** Goods and prices: read. */
  'goods.read': ['admin', 'finance'],
  /** Goods and prices: create, change, put on or take off sale, delete (prices are a commercial decision). */
  'goods.write': ['admin'],
} as const satisfies Record<string, readonly StaffRoleName[]>;

export type StaffPermission = keyof typeof STAFF_PERMISSIONS;

export const STAFF_PERMISSION_NAMES = Object.keys(STAFF_PERMISSIONS) as StaffPermission[];

/** The roles that hold `permission`. */
export function rolesOf(permission: StaffPermission): readonly StaffRoleName[] {
  return STAFF_PERMISSIONS[permission];
}

/** Whether `role` holds `permission` (false for no role: not logged in). */
export function staffCan(role: StaffRoleName | null | undefined, permission: StaffPermission): boolean {
  return role != null && (STAFF_PERMISSIONS[permission] as readonly StaffRoleName[]).includes(role);
}

/**
 * The permission × role table of docs/api/operator.md (Markdown), generated from the map; a unit
 * test holds the document equal to it.
 */
export function renderStaffPermissionTable(): string {
  const head = `| Permission | ${STAFF_ROLE_VALUES.join(' | ')} |`;
  const rule = `|---|${STAFF_ROLE_VALUES.map(() => '---').join('|')}|`;
  const rows = STAFF_PERMISSION_NAMES.map(
    (p) => `| \`${p}\` | ${STAFF_ROLE_VALUES.map((r) => (staffCan(r, p) ? '✓' : '')).join(' | ')} |`,
  );
  return [head, rule, ...rows].join('\n');
}
