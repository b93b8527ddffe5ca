import type { CheckStage, CheckStatus } from '@kyfw/db';
import { UPLOAD_TEXTS } from '../../lib/upload.ts';

/** User-visible Chinese texts of the check module besides the error catalogue's defaults. */

export const CHECK_STATUS_TEXTS: Record<CheckStatus, string> = {
  pending: '待支付',
  queued: '排队中',
  running: '检测中',
  done: '已完成',
  failed: '检测失败',
};

export const CHECK_STAGE_TEXTS: Record<CheckStage, string> = {
  parsing: '正在解析文档',
  comparing: '正在比对文献库',
  detecting: '正在检测AI生成特征',
  reporting: '正在生成报告',
};

export const TEXTS = {
  freeStatus: '免费检测（待开始）',
  orderClosed: (statusText: string) => `订单${statusText}`,
  fileEmpty: '所选文件是空的（0 字节），请选择有内容的论文文件',
  fileTooLarge: UPLOAD_TEXTS.tooLarge,
  tooManyChars: (chars: number, max: number) =>
    `论文共 ${chars.toLocaleString('zh-CN')} 字，超过该检测类型的上限 ${max.toLocaleString('zh-CN')} 字`,
  freeOverCap: (chars: number, cap: number) =>
    `免费查重限 ${cap.toLocaleString('zh-CN')} 字以内，本文 ${chars.toLocaleString('zh-CN')} 字，需付费检测`,
  freeNotForGoods: '该检测类型不支持免费查重',
  goodsCollectionEmpty: (goods: string, collections: string) =>
    `${goods}须比对${collections}，该库暂无收录，暂不可下单，请选择其他检测类型`,
  goodsLibraryEmpty: (goods: string, collections: string) =>
    `${goods}的比对范围（${collections}）暂无收录任何文献，查重无从比对，暂不可下单`,
  aigcPdfOnly: 'AIGC检测报告只提供 PDF 文件',
  aigcFreeUsed: '免费AIGC检测次数已使用，请重新上传并付费检测',
  paidCheck: '该订单为付费检测（上传时未使用免费查重），请支付后开始检测',
  freeUsed: '免费查重次数已使用，请重新上传并付费检测',
  notReady: (statusText: string, progress: number) =>
    `检测尚未完成（${statusText}，${progress}%），请稍后查看报告`,
  notReadyPending: '订单尚未支付，支付后开始检测',
  failedNotReady: '检测失败，暂无报告',
  retrying: '检测遇到问题，正在自动重试',
  failedPaid: '检测未能完成，已为您自动全额退款，款项将原路退回。如需检测，请重新上传论文。',
  failedFree: '检测未能完成，免费查重次数已退回。您可以点击“重新检测”再试一次，或重新上传。',
  failedFreeAigc: '检测未能完成，免费AIGC检测次数已退回。您可以点击“重新检测”再试一次，或重新上传。',
  /** A failed paid check whose automatic refund the payment platform refused (an operator takes over). */
  failedPaidRefundFailed: '检测未能完成，款项未能自动退回，客服将与您联系处理。如需检测，请重新上传论文。',
  /** …and an operator has refunded it since. */
  failedPaidRefundedByHand: '检测未能完成，款项已全额退回。如需检测，请重新上传论文。',
  jobLost: '检测任务中断且重试次数已用完',
  filesRemoved: '报告文件已删除',
  /** The order's cancel reason (its history) when the user deletes a check awaiting payment. */
  orderCancelledByDelete: '用户删除待支付的查重记录，订单取消',
  paidWhileDeleting: '订单已支付，检测即将开始，完成后才能删除',
  /** The refund's reason (and the order's history) when a payment arrives for a deleted check. */
  refundDeletedCheck: '查重记录已删除，无法进行检测，自动退还款项',
  /** The order's status then: '查重记录已删除，正在自动退款' / '…，已自动退款'. */
  deletedCheckStatus: '查重记录已删除',
  /** The refund's reason (and the order's history) when a paid check fails for good. */
  refundFailedCheck: '检测未能完成，自动全额退还款项',
  /** The order's (and the check's) status then: '检测失败，正在自动退款' / '检测失败，已自动退款'. */
  failedCheckStatus: '检测失败',
  /** The refund's reason (and the order's history) when the account is deleted before the report. */
  refundDeletedAccount: '账户已注销，检测未进行，自动全额退还款项',
  /** The order's status then: '账户已注销，正在自动退款' / '…，已自动退款'. */
  deletedAccountStatus: '账户已注销',
  /** The stopped check's failure reason (kept with its de-identified record). */
  stoppedDeletedAccount: '账户已注销，检测未进行',
  /** The same three when the account is closed for 12 months without login (not deleted by its owner). */
  refundClosedAccount: '账户因长期未登录已关闭，检测未进行，自动全额退还款项',
  closedAccountStatus: '账户已关闭',
  stoppedClosedAccount: '账户因长期未登录已关闭，检测未进行',
  /** A check whose order an operator refunded in full before its report: its failure reason. */
  stoppedRefunded: '订单已全额退款，检测已终止',
  /** …and its status text (the order reads 已退款 too). */
  refundedStatus: '已退款',
  /** /freeCheck/retryCheck on a paid check whose money was given back. */
  refundedNoRetry: '该检测失败后已自动全额退款，不能重新检测；如需检测，请重新上传论文',
  verifyOk: '报告真实有效',
  libraryEmptyHint:
    '比对库为空：查重类商品暂不出售（AIGC检测不受影响），导入文献后即可下单。导入演示数据：npm run library:import -- ../shared/data/corpus/csl_papers.jsonl.gz',
} as const;
