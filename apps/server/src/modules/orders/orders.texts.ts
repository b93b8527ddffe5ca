import { COMMISSION_SERVICE_NAMES } from '@kyfw/contracts';
import type { OrderPayChannel, OrderStatus, ServiceType } from '@kyfw/db';

/**
 * User-visible Chinese texts of the orders module that are not the error catalogue's defaults
 * (packages/contracts/src/errors.ts). The web shows `statusText` / `methodText` as given.
 */

export const ORDER_STATUS_TEXTS: Record<OrderStatus, string> = {
  pending_payment: '待支付',
  paid: '已支付',
  processing: '处理中',
  done: '已完成',
  cancelled: '已取消',
  expired: '已过期',
  refunded: '已退款',
};

export const PAY_CHANNEL_TEXTS: Record<OrderPayChannel, string> = {
  wx: '微信支付',
  ali: '支付宝',
  offline: '线下转账',
};

export const SERVICE_TYPE_TEXTS: Record<ServiceType, string> = {
  check: '论文查重',
  reduction: '降重',
  aigc_reduction: '降AIGC',
  ai_writing: 'AI写作',
  // 检索报告 and 查新报告 are different products: the names come from one list.
  ...COMMISSION_SERVICE_NAMES,
};

export const PAYMENT_STATUS_TEXTS = {
  accepted: '支付成功',
  late: '订单已关闭，已自动退款',
  duplicate: '重复支付，已自动退款',
  amount_mismatch: '金额异常，人工处理中',
} as const;

/**
 * A late or duplicate payment whose automatic refund is not done yet (PAYMENT_STATUS_TEXTS says
 * 已自动退款 once it is): under way, or refused by the platform (flagged for an operator).
 */
export const PAYMENT_REFUND_PENDING_TEXTS = {
  late: '订单已关闭，正在自动退款',
  duplicate: '重复支付，正在自动退款',
} as const;
export const PAYMENT_REFUND_FAILED_TEXTS = {
  late: '订单已关闭，退款未能自动完成，客服将与您联系处理',
  duplicate: '重复支付，退款未能自动完成，客服将与您联系处理',
} as const;

export const REFUND_STATUS_TEXTS = {
  pending: '退款处理中',
  processing: '退款处理中',
  succeeded: '已退款',
  failed: '退款失败，人工处理中',
} as const;

export const TEXTS = {
  quantityOutOfRange: (min: number, max: number, unitName: string) =>
    `数量须在 ${min} 到 ${max}${unitName} 之间`,
  orderCancelled: '订单已取消',
  orderDeleted: '订单已删除',
  orderStillPending: '待支付的订单请先取消再删除',
  orderInService: '订单服务进行中，暂不能删除',
  orderExpiredLate: '订单已过期，请重新下单',
  payQrCreated: '请使用手机扫码支付',
  offlineProofReceived: '付款凭证已提交，工作人员确认到账后订单将自动更新',
  offlinePendingStatus: '待确认',
  offlinePendingNext:
    '转账凭证已提交，工作人员核对到账后将确认订单并开始服务；确认前订单不会过期，也不能取消或删除。如未核对到款项，凭证将被退回，您可重新提交或改用微信、支付宝支付。',
  offlineProofRequired: '请上传付款凭证（图片或 PDF）',
  invoiceRequested: '发票申请已提交',
  invoiceIssued: '发票已开具',
  invoiceFileName: (invoiceNo: string) => `电子发票-${invoiceNo}.pdf`,
  reversalFileName: (invoiceNo: string) => `红字发票-${invoiceNo}.pdf`,
  reversalNotRecorded: '请先登记红冲（红字发票号码），再上传红字发票 PDF',
  reversalPdfAttached: '该发票的红字发票已上传',
  reversalPdfMissing: '该发票没有可下载的红字发票',
  invoiceMailSubject: (invoiceNo: string) => `【科研服务网】您的电子发票 ${invoiceNo}`,
  invoiceMailText: (i: { title: string; invoiceNo: string; amount: string }) =>
    [
      '您好：',
      '',
      `您申请的电子发票已开具，发票抬头：${i.title}，价税合计：¥${i.amount}，发票号：${i.invoiceNo}。`,
      '发票 PDF 见附件，也可登录科研服务网，在“个人中心—发票管理”中随时下载。',
      '',
      '此邮件由系统自动发送，请勿直接回复。',
      '科研服务网',
    ].join('\n'),
  addressSaved: '保存成功',
  addressDeleted: '删除成功',
  deliverySaved: '已设置快递配送地址',
  /** The status of an order whose service could not be delivered (its payment refunded automatically). */
  undeliveredRefunding: (what: string) => `${what}，正在自动退款`,
  undeliveredRefunded: (what: string) => `${what}，已自动退款`,
  /** The platform refused that refund (the payment is flagged for an operator). */
  undeliveredRefundFailed: (what: string) => `${what}，退款未能自动完成，客服将与您联系处理`,
  /** …and an operator has refunded it since. */
  undeliveredRefundedByHand: (what: string) => `${what}，已退款`,
  /** serviceUndeliverable without a status text of its own. */
  undeliveredDefault: '服务无法提供',
  /** /invoice/create with an order whose payment is being (or was) refunded automatically. */
  invoiceOrderRefunding: (orderNo: string) =>
    `订单 ${orderNo} 的服务未能完成，款项已自动退还（或正在退还），不能开具发票`,
  refundReasonLate: '订单已关闭，自动退还款项',
  refundNotFound: '退款记录不存在',
  invoiceAlreadyIssued: '该发票已开具',
  invoicePdfRequired: '请上传 PDF 格式的发票文件',
  /** The shared operator token lacks the endpoint's scope (OPERATOR_TOKEN_SCOPES). */
  operatorTooManyWrongTokens: '操作员令牌错误次数过多，请10分钟后再试',
  operatorScopeMissing: (scope: string) =>
    `运营接口凭证无权执行此操作：需要权限 ${scope}，请在 OPERATOR_TOKEN_SCOPES 中授予`,
  refundNotFailed: '该退款不是失败状态，无需处理',
  /** The sandbox outbox's type of the refund notice SMS (refund-notice.ts). */
  refundSmsPurpose: 'order_refunded',
  /** markProcessing / markDone on an order an operator refunded: the service ended. */
  orderRefundedEnded: '该订单已退款，服务已终止，不能再办理或标记完成',
  /** /orders/ship (courier) on an order refunded in full. */
  refundedNoShipping: '该订单已全额退款，不再寄送纸质报告',
  refundReasonDuplicate: '订单重复支付，自动退还多付款项',
  transition: {
    created: '下单',
    paidNotification: '支付平台通知支付成功',
    paidReconciliation: '查询支付平台确认支付成功',
    paidOperator: '运营确认线下转账到账',
    paidInTime: '支付平台确认在订单过期前已支付',
    cancelledByUser: '用户取消订单',
    expired: '超过支付时限未支付，订单关闭',
    refunded: '已全额退款',
    processing: '服务开始处理',
    done: '服务完成',
  },
} as const;
