import { checkTexts as t } from '../texts';
import type { CheckPayStatus } from '../types';

/** Where a check is, as the progress panel shows it. */
export type CheckPhase =
  | 'loading'
  | 'awaiting-payment'
  | 'awaiting-free-start'
  | 'closed'
  | 'queued'
  | 'parsing'
  | 'comparing'
  | 'detecting'
  | 'reporting'
  | 'done'
  | 'failed';

export interface ProgressView {
  phase: CheckPhase;
  /** 0–100 for the progress bar. */
  percent: number;
  /** The line under the bar. */
  label: string;
  /** Index of the current step of 支付 / 解析文档 / 比对文献库 / 生成报告 (4 = all done). */
  step: number;
  /** Keep polling /freeCheck/orderPayStatus (every 3 s). */
  poll: boolean;
}

const CLOSED = new Set(['cancelled', 'expired', 'refunded']);

/**
 * What the page shows for a status answer, and whether to keep asking. Polling stops when the
 * check is done or failed, while it waits for the user (payment in the dialog, which polls itself,
 * or the free start), and for a closed order.
 */
export function progressView(status: CheckPayStatus | undefined | null): ProgressView {
  if (!status) return { phase: 'loading', percent: 0, label: '', step: 0, poll: true };
  const percent = Math.max(0, Math.min(100, Math.round(status.progress ?? 0)));
  switch (status.checkStatus) {
    case 'pending': {
      if (status.free) {
        return { phase: 'awaiting-free-start', percent: 0, label: t.awaitingFreeStart, step: 0, poll: false };
      }
      if (status.status && CLOSED.has(status.status)) {
        const text =
          status.status === 'expired' ? '已过期' : status.status === 'refunded' ? '已退款' : '已取消';
        return { phase: 'closed', percent: 0, label: t.closedStage(text), step: 0, poll: false };
      }
      if (status.payStatus === 1) {
        // Paid; the check is being queued in the same moment.
        return { phase: 'queued', percent: 0, label: t.queued, step: 1, poll: true };
      }
      return { phase: 'awaiting-payment', percent: 0, label: t.awaitingPayment, step: 0, poll: false };
    }
    case 'queued':
      return { phase: 'queued', percent, label: t.queued, step: 1, poll: true };
    case 'running':
      if (status.stage === 'comparing')
        return { phase: 'comparing', percent, label: t.comparingStage(percent), step: 2, poll: true };
      if (status.stage === 'detecting')
        return { phase: 'detecting', percent, label: t.aigc.detectingStage(percent), step: 2, poll: true };
      if (status.stage === 'reporting')
        return { phase: 'reporting', percent, label: t.reportingStage, step: 3, poll: true };
      return { phase: 'parsing', percent, label: t.parsingStage, step: 1, poll: true };
    case 'done':
      return { phase: 'done', percent: 100, label: t.doneStage, step: 4, poll: false };
    case 'failed':
      return {
        phase: 'failed',
        percent,
        label: status.failureReason ?? t.failedTitle,
        step:
          status.stage === 'reporting'
            ? 3
            : status.stage === 'comparing' || status.stage === 'detecting'
              ? 2
              : 1,
        poll: false,
      };
    default:
      return { phase: 'loading', percent: 0, label: '', step: 0, poll: true };
  }
}
