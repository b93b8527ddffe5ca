/**
 * The route table of spec §2. Keys are the spec's route names (also used as React Router route
 * ids); values are the paths. Features link with `paths.x`, never with string literals.
 */
export const paths = {
  index: '/',
  aboutUs: '/aboutUs',
  ai: '/ai',
  'ai-assignment': '/ai/assignment',
  'ai-dissertation': '/ai/dissertation',
  'ai-journalsReviewed': '/ai/journalsReviewed',
  'ai-proposal': '/ai/proposal',
  check: '/check',
  'check-verify': '/check/verify',
  reduction: '/reduction',
  'reduction-aigc': '/reduction/aigc',
  searchReport: '/searchReport',
  technologySearch: '/technologySearch',
  'technologySearch-downloadService': '/technologySearch/downloadService',
  'technologySearch-techEvaluation': '/technologySearch/techEvaluation',
  industryNews: '/industryNews',
  login: '/login',
  'login-forgotPassword': '/login/forgotPassword',
  register: '/register',
  user: '/user',
  'user-address': '/user/address',
  'user-info': '/user/info',
  'user-invoice': '/user/invoice',
  'user-order': '/user/order',
  'user-order-check': '/user/order/check',
  'user-order-commission': '/user/order/commission',
  'user-order-reduction': '/user/order/reduction',
  'user-order-write': '/user/order/write',
  'user-password': '/user/password',
  'user-paymentRecords': '/user/paymentRecords',
  logout: '/logout',
} as const;

export type RouteName = keyof typeof paths;

/** /industryNews/{industryNews}: the parameter is a catch-all of one or more segments. */
export function industryNewsPath(...segments: string[]): string {
  const rest = segments.map(encodeURIComponent).join('/');
  return rest ? `${paths.industryNews}/${rest}` : paths.industryNews;
}

/** The AI writing pages that ask for confirmation before the tab is closed or reloaded (spec §2). */
export const LEAVE_CONFIRM_PATHS: readonly string[] = [
  paths['ai-dissertation'],
  paths['ai-proposal'],
  paths['ai-assignment'],
  paths['ai-journalsReviewed'],
];
