/** User-visible texts of the app shell (header, footer, layouts, feedback, error pages). */
export const shellTexts = {
  siteName: '科研服务网',
  siteSlogan: '论文查重 · 降重 · AI写作 一站式学术服务',
  close: '关闭',
  login: '登录',
  register: '注册',
  loginOrRegister: '登录 / 注册',
  home: '首页',
  backHome: '返回首页',
  retry: '重新加载',
  loadingPage: '页面加载中…',
  loggingOut: '正在退出登录…',
  leaveConfirm: '确定要离开吗？您填写的内容可能不会被保存。',
  weChatUser: '微信用户',
  userCenter: '个人中心',
  notFoundTitle: 'Page Not Found',
  notFoundHeading: '页面不存在',
  notFoundHint: '您访问的页面可能已被移动或删除，请检查网址或返回首页。',
  serverErrorTitle: 'Internal Server Error',
  serverErrorHeading: '服务出了点问题',
  serverErrorHint: '页面暂时无法显示，请稍后重新加载；若问题持续，请联系客服。',
  footer: {
    services: '服务',
    company: '关于',
    contact: '联系我们',
    phone: '客服电话',
    address: '公司地址',
    qrCode: '扫一扫，手机上访问',
    friendLinks: '友情链接',
    terms: '用户服务条款',
    privacy: '隐私政策',
    aboutUs: '关于我们',
  },
} as const;

/** `${title} - 科研服务网`, for the document title of a page. */
export function pageTitle(title: string): string {
  return `${title} - ${shellTexts.siteName}`;
}
