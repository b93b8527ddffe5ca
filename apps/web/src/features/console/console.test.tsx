import { consoleApi, type DataOf, type Staff } from '@kyfw/contracts';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiAnswer, installDomShims, renderRoutes, resetAppState, stubFetch } from '../../testing/test-utils';
import { ConsoleApp } from './components/console-app';

vi.setConfig({ testTimeout: 30_000 });
beforeAll(() => installDomShims());
beforeEach(() => resetAppState());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function staffOf(role: Staff['role'], roleText: string): Staff {
  return { username: 'zhangcw', role, roleText, expiresAt: '2026-11-27T10:00:00.000Z' };
}

const EMPTY_DASHBOARD: DataOf<typeof consoleApi.dashboard> = {
  days: [],
  queues: { pendingProofs: 2, flaggedPayments: 0, failedRefunds: 1, invoicesToIssue: 0, queuedJobs: 0 },
  failedJobs: [],
};

/** The console at `path` for a staff member of `role`; other calls answer `extra` or an empty success. */
function renderConsole(
  path: string,
  staff: Staff,
  extra?: (url: string, init: RequestInit) => Response | undefined,
) {
  const fetch = stubFetch((url, init) => {
    if (url.endsWith(consoleApi.me.path)) return apiAnswer(consoleApi.me, staff);
    if (url.endsWith(consoleApi.dashboard.path)) return apiAnswer(consoleApi.dashboard, EMPTY_DASHBOARD);
    return extra?.(url, init);
  });
  renderRoutes([{ path: '/admin/*', element: <ConsoleApp /> }], path);
  return fetch;
}

describe('console shell', () => {
  it('shows each role only its own menu entries', async () => {
    renderConsole('/admin', staffOf('support', '客服'));
    expect(await screen.findByRole('menuitem', { name: '订单' })).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: '线下付款' })).toBeTruthy();
    expect(screen.queryByRole('menuitem', { name: '审计日志' })).toBeNull();
    expect(await screen.findByText('退款未能自动完成')).toBeTruthy();
  });

  it('says a page is not for this role instead of rendering it', async () => {
    renderConsole('/admin/audit', staffOf('editor', '编辑'));
    expect(await screen.findByText('当前角色无权查看此页面')).toBeTruthy();
    expect(screen.queryByRole('menuitem', { name: '订单' })).toBeNull();
  });

  it('sends a visitor without a session to the login page', async () => {
    stubFetch((url) =>
      url.endsWith(consoleApi.me.path)
        ? new Response(JSON.stringify({ code: 1003, message: '请先登录运营后台', data: null }), {
            headers: { 'content-type': 'application/json' },
          })
        : undefined,
    );
    renderRoutes([{ path: '/admin/*', element: <ConsoleApp /> }], '/admin/orders');
    expect(await screen.findByText('运营后台登录')).toBeTruthy();
  });
});
