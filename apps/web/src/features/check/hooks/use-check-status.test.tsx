import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProvider, createQueryClient } from '../../../app/provider';
import { installDomShims, jsonResponse, resetAppState, stubFetch } from '../../../testing/test-utils';
import type { CheckPayStatus } from '../types';
import { useCheckStatus } from './use-check-status';

vi.setConfig({ testTimeout: 20_000 });

const base: CheckPayStatus = {
  payStatus: 1,
  status: 'processing',
  orderNo: 'KY1',
  payChannel: 'wx',
  paidAt: null,
  expireAt: '2026-03-02T12:00:00Z',
  offlinePending: false,
  orderId: 'o1',
  free: false,
  kind: 'similarity',
  checkStatus: 'queued',
  checkStatusText: '排队中',
  stage: null,
  stageText: null,
  progress: 0,
  failureReason: null,
  canRetry: false,
  reportReady: false,
};

function Probe() {
  const { view, isError } = useCheckStatus('o1', { pollIntervalMs: POLL_MS });
  return (
    <p data-testid="probe">
      {view.phase}:{view.percent}:{isError ? 'error' : 'ok'}
    </p>
  );
}

function renderProbe() {
  render(
    <AppProvider queryClient={createQueryClient()}>
      <Probe />
    </AppProvider>,
  );
}

/** Answers the status calls with the given envelopes in turn (the last one repeats). */
function serve(answers: (Partial<CheckPayStatus> | { code: number; message: string } | 'network')[]) {
  let calls = 0;
  const fetch = stubFetch((url) => {
    if (!url.endsWith('/freeCheck/orderPayStatus')) return undefined;
    const answer = answers[Math.min(calls, answers.length - 1)]!;
    calls += 1;
    if (answer === 'network') throw new TypeError('Failed to fetch');
    if ('code' in answer && typeof answer.code === 'number')
      return jsonResponse({ code: answer.code, message: answer.message, data: null });
    return jsonResponse({ code: 0, message: 'success', data: { ...base, ...answer } });
  });
  return { calls: () => calls, fetch };
}

const POLL_MS = 25;

/** Moves the fake clock by `ms` and lets the answers and renders it released settle. */
async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

/** Moves the clock a poll at a time (at most 100 polls) until the probe shows `text`. */
async function advanceUntil(text: string) {
  for (let i = 0; i < 100 && screen.queryByTestId('probe')?.textContent !== text; i++) await advance(POLL_MS);
  expect(screen.getByTestId('probe').textContent).toBe(text);
}

beforeAll(installDomShims);
beforeEach(() => {
  resetAppState();
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('useCheckStatus (progress polling)', () => {
  it('polls through queued and comparing to done, then stops', async () => {
    const server = serve([
      { checkStatus: 'queued' },
      { checkStatus: 'running', stage: 'parsing', progress: 5 },
      { checkStatus: 'running', stage: 'comparing', progress: 40 },
      { checkStatus: 'running', stage: 'reporting', progress: 85 },
      { checkStatus: 'done', progress: 100, reportReady: true },
    ]);
    renderProbe();
    await advanceUntil('done:100:ok');
    const calls = server.calls();
    expect(calls).toBe(5);
    await advance(POLL_MS * 10); // ten more poll intervals: no call
    expect(server.calls()).toBe(calls);
  });

  it('does not poll while the order waits for payment or for the free start', async () => {
    const server = serve([{ payStatus: 0, status: 'pending_payment', checkStatus: 'pending' }]);
    renderProbe();
    await advanceUntil('awaiting-payment:0:ok');
    await advance(POLL_MS * 10); // ten more poll intervals: no call
    expect(server.calls()).toBe(1);
  });

  it('stops on a failed check', async () => {
    const server = serve([
      { checkStatus: 'running', stage: 'comparing', progress: 20 },
      {
        checkStatus: 'failed',
        stage: 'comparing',
        progress: 20,
        failureReason: '检测未能完成',
        canRetry: true,
      },
    ]);
    renderProbe();
    await advanceUntil('failed:20:ok');
    await advance(POLL_MS * 10); // ten more poll intervals: no call
    expect(server.calls()).toBe(2);
  });

  it('keeps polling after a network error and recovers', async () => {
    const server = serve([
      'network',
      'network',
      { checkStatus: 'running', stage: 'comparing', progress: 60 },
      { checkStatus: 'done', progress: 100 },
    ]);
    renderProbe();
    await advanceUntil('done:100:ok');
    expect(server.calls()).toBe(4);
  });

  it('stops for good when the order does not exist (1010) or the session is gone (1003)', async () => {
    const server = serve([{ code: 1010, message: '订单不存在或已删除' }]);
    renderProbe();
    await advanceUntil('loading:0:error');
    await advance(POLL_MS * 10); // ten more poll intervals: no call
    expect(server.calls()).toBe(1);
  });
});
