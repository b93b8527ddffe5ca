import { STAFF_ROLE_TEXTS, type StaffRoleName } from '@kyfw/contracts';
import { NEWS_ACTION_TEXTS } from '../news/news.texts.ts';

/** Every Chinese text of the operator console's server side. */
export const TEXTS = {
  loginFailed: '用户名、密码或动态验证码错误',
  locked: (minutes: number) => `登录失败次数过多，账号已锁定，请${minutes}分钟后再试`,
  disabled: '该账号已停用',
  notLoggedIn: '请先登录运营后台',
  sessionExpired: '登录已过期，请重新登录',
  forbidden: (role: StaffRoleName, allowed: readonly StaffRoleName[]) =>
    `当前角色（${STAFF_ROLE_TEXTS[role]}）无权执行此操作，需要：${allowed.map((r) => STAFF_ROLE_TEXTS[r]).join('、')}`,
  orderNotFound: '订单不存在',
  loggedOut: '已退出登录',
  proofConfirmed: '已确认到账，用户的服务已开始',
  proofRejected: '已驳回该凭证',
  refundRequested: '退款已提交',
  refundRetried: (status: string) => `已重新提交退款，当前状态：${status}`,
  refundRetryFailed: (why: string) => `重试仍未成功（${why}），请稍后再试或线下退回后标记为已人工退款`,
  refundMarkedDone: '已标记为人工退款完成',
  staffNotFound: '运营账号不存在',
  usernameTaken: (username: string) => `用户名 ${username} 已存在`,
  staffCreated: '账号已创建，请把密码、动态验证码密钥和恢复码交给本人（只显示这一次）',
  staffUpdated: '账号已更新',
  notOnSelf: '不能停用自己的账号或修改自己的角色',
  secondFactorReset: '两步验证已重置，旧的验证器与恢复码已失效',
} as const;

/** What each audited action is called in the console's audit log. */
export const ACTION_TEXTS: Record<string, string> = {
  'auth.login': '登录',
  'auth.logout': '退出登录',
  'staff.create': '创建运营账号',
  'staff.list': '查看运营账号',
  'staff.update': '修改运营账号',
  'staff.reset2fa': '重置两步验证',
  'dashboard.view': '查看概览',
  'orders.search': '搜索订单',
  'orders.detail': '查看订单详情',
  'offline.list': '查看线下付款',
  'offline.file': '查看付款凭证',
  'offline.confirm': '确认线下付款',
  'offline.reject': '驳回线下付款',
  'refund.create': '发起退款',
  'refund.failedList': '查看退款失败队列',
  'refund.retry': '重试退款',
  'refund.markDone': '标记人工退款完成',
  'audit.list': '查看审计日志',
  'commission.list': '查看委托列表',
  'commission.detail': '查看委托详情',
  'commission.quote': '委托报价',
  'commission.report': '上传委托报告',
  'commission.complete': '委托标记完成',
  'commission.file': '下载委托文件',
  ...NEWS_ACTION_TEXTS,
};
