import { describe, expect, it } from 'vitest';
import type { CheckPayStatus } from '../types';
import { progressView } from './progress';

function status(over: Partial<CheckPayStatus>): CheckPayStatus {
  return {
    payStatus: 0,
    status: 'pending_payment',
    orderNo: 'KY1',
    payChannel: null,
    paidAt: null,
    expireAt: '2026-03-02T12:00:00Z',
    offlinePending: false,
    orderId: 'o1',
    free: false,
    kind: 'similarity',
    checkStatus: 'pending',
    checkStatusText: '待支付',
    stage: null,
    stageText: null,
    progress: 0,
    failureReason: null,
    canRetry: false,
    reportReady: false,
    ...over,
  };
}

describe('progressView (what the progress panel shows, and whether to poll)', () => {
  it('polls until the first answer', () => {
    expect(progressView(undefined)).toMatchObject({ phase: 'loading', poll: true });
  });

  it('waits for the user without polling: payment (the dialog polls), the free start, a closed order', () => {
    expect(progressView(status({}))).toMatchObject({ phase: 'awaiting-payment', poll: false });
    expect(progressView(status({ free: true, status: null }))).toMatchObject({
      phase: 'awaiting-free-start',
      poll: false,
    });
    const closed = progressView(status({ status: 'expired' }));
    expect(closed).toMatchObject({ phase: 'closed', poll: false });
    expect(closed.label).toContain('已过期');
  });

  it('an AIGC check detects instead of comparing: its own step label and the same second step', () => {
    const detecting = progressView(
      status({ kind: 'aigc', payStatus: 1, checkStatus: 'running', stage: 'detecting', progress: 20 }),
    );
    expect(detecting).toMatchObject({ phase: 'detecting', percent: 20, step: 2, poll: true });
    expect(detecting.label).toBe('正在检测AI生成特征 20%');
  });

  it('polls from payment to the end: queued, parsing, comparing with a percentage, reporting', () => {
    expect(progressView(status({ payStatus: 1, status: 'paid' }))).toMatchObject({
      phase: 'queued',
      poll: true,
      step: 1,
    });
    expect(progressView(status({ payStatus: 1, checkStatus: 'queued' }))).toMatchObject({
      phase: 'queued',
      poll: true,
    });
    expect(
      progressView(status({ payStatus: 1, checkStatus: 'running', stage: 'parsing', progress: 5 })),
    ).toMatchObject({
      phase: 'parsing',
      percent: 5,
      step: 1,
      poll: true,
    });
    const comparing = progressView(
      status({ payStatus: 1, checkStatus: 'running', stage: 'comparing', progress: 42 }),
    );
    expect(comparing).toMatchObject({ phase: 'comparing', percent: 42, step: 2, poll: true });
    expect(comparing.label).toBe('正在比对文献库 42%');
    expect(
      progressView(status({ payStatus: 1, checkStatus: 'running', stage: 'reporting', progress: 88 })),
    ).toMatchObject({
      phase: 'reporting',
      step: 3,
      poll: true,
    });
  });

  it('stops when done (100%) or failed (with the reason)', () => {
    expect(progressView(status({ payStatus: 1, checkStatus: 'done', progress: 100 }))).toMatchObject({
      phase: 'done',
      percent: 100,
      step: 4,
      poll: false,
    });
    const failed = progressView(
      status({
        payStatus: 1,
        checkStatus: 'failed',
        stage: 'comparing',
        progress: 30,
        failureReason: '检测未能完成。',
      }),
    );
    expect(failed).toMatchObject({ phase: 'failed', poll: false, step: 2, label: '检测未能完成。' });
  });

  it('clamps a percentage outside 0–100', () => {
    expect(progressView(status({ checkStatus: 'running', stage: 'comparing', progress: 140 })).percent).toBe(
      100,
    );
  });
});
