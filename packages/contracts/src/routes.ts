/**
 * The web app's pages (spec §2), one list for everyone who needs to know them: the server answers
 * 404 for a path none of them matches and writes each page's title and description into the HTML it
 * serves (apps/server/src/modules/news/pages.ts); sitemap.xml lists the indexable ones. The web
 * router (apps/web/src/app/router.tsx) must serve exactly these paths: apps/web/src/app/routes.test.ts
 * fails when a page is added to one and not the other. No zod, no React: the server imports it.
 */
export interface PageRoute {
  /** The spec's route name, also the React Router route id. */
  name: string;
  /** React Router pattern: `:param` is one segment; a trailing `/*` is any rest, empty included. */
  path: string;
  /** Page title without the site name (the server adds ` - 科研服务网`). */
  title: string;
  /** For search results and share previews; the site's description when absent. */
  description?: string;
  /** true: crawlers may index it and sitemap.xml lists it; false: `noindex` (accounts, console, tools). */
  indexable: boolean;
}

export const SITE_NAME = '科研服务网';
export const SITE_DESCRIPTION =
  '科研服务网：论文查重、论文降重、降AIGC、AI论文写作、收录引用检索报告与科技查新，一站式学术服务平台。';

export const pageRoutes: readonly PageRoute[] = [
  { name: 'index', path: '/', title: `${SITE_NAME} - 论文查重 · 降重 · AI写作`, indexable: true },
  { name: 'aboutUs', path: '/aboutUs', title: '关于我们', indexable: true },
  {
    name: 'ai',
    path: '/ai',
    title: 'AI论文写作',
    description: '选题、提纲、摘要、参考文献与全文写作，按模板排版并下载 Word 文档。',
    indexable: true,
  },
  {
    name: 'ai-assignment',
    path: '/ai/assignment',
    title: 'AI课程作业写作',
    description: '课程论文、读书报告、实验报告与结课作业。',
    indexable: true,
  },
  {
    name: 'ai-dissertation',
    path: '/ai/dissertation',
    title: 'AI毕业论文写作',
    description: '本科、硕士学位论文：选题、提纲、正文与参考文献。',
    indexable: true,
  },
  {
    name: 'ai-journalsReviewed',
    path: '/ai/journalsReviewed',
    title: 'AI期刊论文写作',
    description: '面向期刊投稿的研究论文，结构规范、论证严谨。',
    indexable: true,
  },
  {
    name: 'ai-proposal',
    path: '/ai/proposal',
    title: 'AI开题报告写作',
    description: '研究背景、国内外现状、研究内容与技术路线。',
    indexable: true,
  },
  {
    name: 'check',
    path: '/check',
    title: '论文查重',
    description:
      '上传论文检测与比对库中文献的相似情况，报告给出总文字复制比、去除引用文献复制比、单篇最大文字复制比与逐章节明细；也可做AIGC检测。',
    indexable: true,
  },
  { name: 'check-verify', path: '/check/verify', title: '查重报告真伪核验', indexable: false },
  { name: 'check-report', path: '/check/report/:orderId', title: '论文检测报告', indexable: false },
  {
    name: 'reduction',
    path: '/reduction',
    title: '论文降重',
    description:
      '找出重复段落逐段改写，数字、引用与术语由程序逐项核对，改写前后用本站比对库各测一次重复率，可下载 Word 文档。',
    indexable: true,
  },
  {
    name: 'reduction-aigc',
    path: '/reduction/aigc',
    title: '降AIGC率',
    description: '用本站AIGC检测器找出疑似AI生成的段落并逐段重写，处理前后给出AIGC指数（参考值）。',
    indexable: true,
  },
  {
    name: 'searchReport',
    path: '/searchReport',
    title: '收录引用检索报告',
    description: '论文被 SCI、EI、CSSCI 等数据库收录与引用情况的检索报告。',
    indexable: true,
  },
  {
    name: 'technologySearch',
    path: '/technologySearch',
    title: '科技查新',
    description: '立项、成果鉴定、报奖与专利申请所需的科技查新报告。',
    indexable: true,
  },
  {
    name: 'technologySearch-downloadService',
    path: '/technologySearch/downloadService',
    title: '文献下载服务',
    description: '按题录、DOI 或链接获取期刊论文、学位论文、专利与标准原文，仅限个人学习研究。',
    indexable: true,
  },
  {
    name: 'technologySearch-techEvaluation',
    path: '/technologySearch/techEvaluation',
    title: '科技成果评价',
    description: '对科技成果的创新性、先进性与应用价值进行评价。',
    indexable: true,
  },
  {
    // The list at /industryNews, an article at /industryNews/{one or more segments}: the server
    // looks the article up and answers 404 for an unknown one.
    name: 'industryNews',
    path: '/industryNews/*',
    title: '行业资讯',
    description: '查重报告解读、参考文献与引用规范、AI生成内容标识等学术写作相关的指南与政策解读。',
    indexable: true,
  },
  { name: 'login', path: '/login', title: '登录', indexable: false },
  { name: 'login-forgotPassword', path: '/login/forgotPassword', title: '找回密码', indexable: false },
  { name: 'register', path: '/register', title: '注册账号', indexable: false },
  { name: 'logout', path: '/logout', title: '退出登录', indexable: false },
  { name: 'user', path: '/user', title: '个人中心', indexable: false },
  { name: 'user-address', path: '/user/address', title: '收货地址', indexable: false },
  { name: 'user-info', path: '/user/info', title: '个人信息', indexable: false },
  { name: 'user-invoice', path: '/user/invoice', title: '发票管理', indexable: false },
  { name: 'user-order', path: '/user/order', title: '我的订单', indexable: false },
  { name: 'user-order-check', path: '/user/order/check', title: '我的订单', indexable: false },
  { name: 'user-order-reduction', path: '/user/order/reduction', title: '我的订单', indexable: false },
  { name: 'user-order-commission', path: '/user/order/commission', title: '我的订单', indexable: false },
  { name: 'user-order-write', path: '/user/order/write', title: '我的订单', indexable: false },
  { name: 'user-password', path: '/user/password', title: '修改密码', indexable: false },
  { name: 'user-paymentRecords', path: '/user/paymentRecords', title: '支付记录', indexable: false },
  // The operator console: its own router inside one chunk; the server refuses its calls without a
  // staff session.
  { name: 'admin', path: '/admin/*', title: '运营后台', indexable: false },
];

/**
 * The route whose pattern matches `pathname` (no query; a trailing slash is ignored), or undefined.
 * Like React Router's default, letters match in any case (/aboutus shows 关于我们 in the browser too).
 */
export function matchPageRoute(pathname: string): { route: PageRoute; rest: string } | undefined {
  const segments = pathname.split('/').filter(Boolean);
  for (const route of pageRoutes) {
    const pattern = route.path.split('/').filter(Boolean);
    const splat = pattern.at(-1) === '*';
    const fixed = splat ? pattern.slice(0, -1) : pattern;
    if (splat ? segments.length < fixed.length : segments.length !== fixed.length) continue;
    if (!fixed.every((part, i) => part.startsWith(':') || part.toLowerCase() === segments[i]!.toLowerCase()))
      continue;
    return { route, rest: segments.slice(fixed.length).join('/') };
  }
  return undefined;
}

/** The document title of a page: `{title} - 科研服务网` (a title naming the site already stays as is). */
export function documentTitle(title: string): string {
  return title.includes(SITE_NAME) ? title : `${title} - ${SITE_NAME}`;
}

/** What a page's head says, from this list: the server writes it, the web app sets it on navigation. */
export interface RouteHead {
  route: PageRoute;
  /** The document title (documentTitle of the route's). */
  title: string;
  /** The route's own title, for og:title. */
  shortTitle: string;
  description: string;
  /** The canonical path (the route's own spelling); null: not indexable (no canonical link). */
  canonicalPath: string | null;
  /** The catch-all rest (an article's slug under /industryNews). */
  rest: string;
}

/** The head of the page at `pathname` (no query; a trailing slash is ignored); undefined: no page. */
export function routeHead(pathname: string): RouteHead | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const match = matchPageRoute(path);
  if (!match) return undefined;
  const { route, rest } = match;
  // The route's own spelling for the canonical address (the router matches /aboutus too).
  const canonical = route.path.includes(':') ? path : route.path.replace(/\/\*$/, '');
  return {
    route,
    title: documentTitle(route.title),
    shortTitle: route.title,
    description: route.description ?? SITE_DESCRIPTION,
    canonicalPath: route.indexable ? canonical : null,
    rest,
  };
}
