import type { ReductionKind, ReductionStatus } from '@kyfw/db';
import type { FactRule } from './reduction.facts.ts';

/** Every user-visible text of the 降重 / 降AIGC service. */
export const KIND_NAMES: Record<ReductionKind, string> = { reduction: '降重', aigc_reduction: '降AIGC' };
export const KIND_GOODS: Record<ReductionKind, string> = {
  reduction: 'reduction_standard',
  aigc_reduction: 'aigc_reduction_standard',
};

export const STATUS_TEXTS: Record<ReductionStatus, string> = {
  ordered: '待支付',
  rewriting: '改写中',
  done: '已完成',
  failed: '改写失败',
};

/** The fact rules of reduction.facts.ts in the words the result shows. */
export const FACT_RULE_TEXTS: Record<FactRule, string> = {
  number: '数字被改动',
  name: '人名、地名或机构名被改动',
  direction: '方向或正负含义被改动',
  negation: '否定含义被改动',
  dropped: '删去了原文的句子',
  added: '增加了原文没有的内容',
  citation: '引用标注缺失或被改动',
  quote: '引文被改动',
  title: '书名被改动',
  formula: '公式被改动',
  term: '术语被改动',
  length: '长度异常',
};

/**
 * Where the money given back is, read from the refund itself (never promised before it happened).
 * `amount` is in yuan, e.g. '3.00'.
 */
export const REFUND_TEXTS = {
  refunding: (amount: string) => `未改写部分 ¥${amount} 正在自动退款`,
  refunded: (amount: string) => `未改写部分 ¥${amount} 已自动退款`,
  refundedByHand: (amount: string) => `未改写部分 ¥${amount} 已退款`,
  failed: (amount: string) => `未改写部分 ¥${amount} 退款未能自动完成，客服将与您联系处理`,
  fullRefunding: (amount: string) => `全部 ¥${amount} 正在自动退款`,
  fullRefunded: (amount: string) => `全部 ¥${amount} 已自动退款`,
  fullRefundedByHand: (amount: string) => `全部 ¥${amount} 已退款`,
  fullFailed: (amount: string) => `全部 ¥${amount} 退款未能自动完成，客服将与您联系处理`,
};

export const TEXTS = {
  emptyText: '请输入需要改写的文字',
  tooShort: (min: number) => `文字太短，至少需要 ${min} 个字`,
  tooLong: (chars: number, max: number) => `文字共 ${chars} 字，超过单次上限 ${max} 字，请分段提交`,
  noParagraphs: '没有可改写的段落（需要成段的正文，标题和参考文献不改写）',
  notFound: '降重记录不存在',
  reportNotFound: '查重报告不存在或不属于当前账号',
  reportNotReady: '该查重报告尚未完成，完成后才能降重',
  reportNotSimilarity: '只有查重报告可以按报告降重，请选择一份查重报告',
  reportNoFlagged: '该报告没有标红的重复段落，无需降重',
  notDone: (progress: number) => `正在改写（${progress}%），完成后即可查看`,
  /** The reduction failed for good; where its money is comes from the order (refundStateTexts). */
  failed: '改写失败',
  failedRefund: '降重改写多次失败，订单金额自动退还',
  failedStatus: '改写失败',
  /** Ended by an operator's full refund before it was done: the failure reason, and the status. */
  refundEnded: '订单已全额退款，改写已终止',
  refundedStatus: '已退款',
  deleteWhileRewriting: '正在改写，完成后才能删除',
  deletedRefund: '降重记录已删除，无法改写，自动退还款项',
  deletedStatus: '记录已删除',
  progressMeasuring: '正在检测改写前的重复率与AIGC指数',
  progressRewriting: (n: number, total: number) => `正在改写第 ${n}/${total} 段`,
  progressMeasuringAfter: '正在检测改写后的重复率与AIGC指数',
  progressDone: '改写完成',
  keptNote: (lost: string[]) => `改写后未能保留 ${lost.slice(0, 3).join('、')}，已保留原文`,
  /** A kept paragraph: the rules its last rewrite broke (decision 0027). */
  rejectedNote: (messages: string[]) =>
    `改写未通过核查：${messages.slice(0, 3).join('；')}。已保留原文，本段不收费`,
  noneRewrittenRefund: '降重没有段落通过核查，全部保留原文，订单金额自动退还',
  noneRewrittenStatus: '未能改写任何段落',
  partRefundReason: (kept: number, total: number) =>
    `降重有 ${kept}/${total} 段未通过核查、保留原文，按未改写部分自动退款`,
  sandboxNote: '当前为沙箱环境：改写由模板替换生成（标有【沙箱示例】），不是人工智能改写结果',
  untitled: '未命名文本',
  fileMissing: '请选择要降重的文件',
  formatNotKept: '说明：未能在原文档中逐段定位改写内容，本文件按纯文本重新排版，原格式未保留。',
  goodsMissing: '降重服务暂未上架',
  refundDeletedAccount: '账户已注销，降重未完成，自动全额退还款项',
  deletedAccountStatus: '账户已注销',
  refundClosedAccount: '账户因长期未登录已关闭，降重未完成，自动全额退还款项',
  closedAccountStatus: '账户已关闭',
};
