import type { CommissionStatus } from '@kyfw/db';

/** User-visible Chinese texts of the commission module (the form messages are the contract's). */
export const STATUS_TEXTS: Record<CommissionStatus, string> = {
  quoting: '待报价',
  pending_payment: '待支付',
  processing: '处理中',
  done: '已完成',
  cancelled: '已取消',
  refunded: '已退款',
};

export const TEXTS = {
  notFound: '委托不存在或已删除',
  fileNotFound: '文件不存在或已删除',
  goodsMissing: '该服务暂未开放，请稍后再试',
  deadlinePast: '期望完成日期须晚于今天',
  pricingQuote: '科技成果评价的费用由工作人员根据材料与评价形式报价；报价后可在“我的订单”中查看并支付。',
  perItem: (count: string, unitPrice: string, unit: string) => `${count} × ${unitPrice}/${unit}`,
  fixed: (name: string, unitPrice: string) => `${name}：${unitPrice}/项`,
  notCancellable: '委托已在处理中或已结束，不能取消；如有疑问请联系客服',
  cancelled: '委托已取消',
  notQuotable: '只有待报价（或报价未支付且订单已关闭）的成果评价委托可以报价',
  notDeliverable: '只有已支付、处理中的委托可以上传报告',
  /** A staff action on a commission whose payment an operator refunded in full. */
  refundedEnded: '该委托已全额退款，办理已终止，不能再上传报告或标记完成',
  noReport: '请先上传报告文件，再标记完成',
  notCompletable: '只有处理中的委托可以标记完成',
  reportMissing: '报告尚未出具，完成后可下载',
  orderExpired: '订单已关闭，未支付',
  /** `amount` as formatYuan writes it (¥1,500.00). */
  quoted: (amount: string) => `报价 ${amount}`,
  paid: (amount: string) => `已支付 ${amount}`,
  dueOn: (date: string) => `预计完成日期 ${date}`,
  delivered: (count: number) => `已出具 ${count} 份报告文件，可在订单中下载`,
  timeline: {
    submitted: '已提交',
    quoting: '待报价',
    payment: '待支付',
    processing: '处理中',
    done: '已完成',
    cancelled: '已取消',
    refunded: '已退款',
  },
  /** The 已退款 step's note: the amount going back (`amount` as formatYuan writes it). */
  refundedNote: (amount: string) => `已全额退款 ${amount}，款项按原支付方式退回`,
  transition: {
    processing: '工作人员已开始办理委托',
    done: '报告已出具，委托完成',
    cancelled: '用户取消委托',
  },
  smsPurpose: 'commission_done',
  /** The e-mail notices (commission.notices.ts); `path` is where the client downloads and pays. */
  mail: {
    path: '/user/order/commission',
    kinds: { quoted: '报价待支付邮件', done: '办理完成邮件', refunded: '退款通知邮件' },
    statuses: { pending: '待发送', sending: '发送中', sent: '已发送', failed: '未发送' },
    notStuck: '该通知不存在，或已不再卡住（正在发送且租约有效，或已发送）',
    resent: '已重新排队发送，收件人会收到与之前相同邮件编号（Message-ID）的邮件',
    done: (f: MailFacts) => ({
      subject: `【科研服务网】您委托的${f.serviceName}已完成（订单号 ${f.orderNo}）`,
      text: [
        '您好：',
        '',
        `您委托的${f.serviceName}“${f.title}”已办理完成，${f.reportName}已出具。`,
        `委托编号：${f.commissionNo}`,
        `订单号：${f.orderNo}`,
        '',
        `请登录科研服务网，在“个人中心—我的订单—检索查新订单”中下载：${f.link}`,
        '选择了纸质报告邮寄的，快递单号可在订单详情中查看。',
        '',
        '此邮件由系统自动发送，请勿直接回复。',
        '科研服务网',
      ].join('\n'),
    }),
    refunded: (f: MailFacts) => ({
      subject: `【科研服务网】您委托的${f.serviceName}已退款（订单号 ${f.orderNo}）`,
      text: [
        '您好：',
        '',
        `您委托的${f.serviceName}“${f.title}”已由工作人员办理全额退款，委托办理随之终止。`,
        `委托编号：${f.commissionNo}`,
        `订单号：${f.orderNo}`,
        `订单金额：${f.amount}`,
        '',
        '款项将按原支付方式退回（线下转账的由工作人员转账退回），请留意到账。',
        `订单状态可在“个人中心—我的订单—检索查新订单”中查看：${f.link}`,
        '',
        '此邮件由系统自动发送，请勿直接回复。',
        '科研服务网',
      ].join('\n'),
    }),
    quoted: (f: MailFacts) => ({
      subject: `【科研服务网】您委托的${f.serviceName}已报价，请支付（订单号 ${f.orderNo}）`,
      text: [
        '您好：',
        '',
        `您委托的${f.serviceName}“${f.title}”已由工作人员报价：${f.amount}。`,
        `委托编号：${f.commissionNo}`,
        `订单号：${f.orderNo}`,
        '',
        `请登录科研服务网，在“个人中心—我的订单—检索查新订单”中查看报价说明并支付：${f.link}`,
        '支付后即开始办理，完成后报告可在同一页面下载。',
        '',
        '此邮件由系统自动发送，请勿直接回复。',
        '科研服务网',
      ].join('\n'),
    }),
  },
  erasedRefund: '账号已注销，委托无法交付，全额退款',
  erasedStatus: '账号已注销',
} as const;

/** What an e-mail notice says about its commission. */
export interface MailFacts {
  serviceName: string;
  reportName: string;
  title: string;
  commissionNo: string;
  orderNo: string;
  /** As formatYuan writes it (¥3,000.00). */
  amount: string;
  link: string;
}

/** Audit-log action names of the operator endpoints (console texts show them). */
export const ACTIONS = {
  list: 'commission.list',
  export: 'commission.export',
  detail: 'commission.detail',
  quote: 'commission.quote',
  uploadReport: 'commission.report',
  complete: 'commission.complete',
  download: 'commission.file',
  stuckNotices: 'jobs.stuckNotices',
  noticeResend: 'jobs.noticeResend',
} as const;
