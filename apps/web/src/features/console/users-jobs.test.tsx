import { consoleApi, jobsAdminApi, type Staff, type UserDetail, userAdminApi } from '@kyfw/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { apiAnswer, renderRoutes, setUpPageTests, stubFetch } from '../../testing/test-utils';
import { ConsoleApp } from '.';

setUpPageTests();
vi.setConfig({ testTimeout: 120_000 });

const staff = (role: Staff['role'], roleText: string): Staff => ({
  username: 'zhaol',
  role,
  roleText,
  expiresAt: '2026-11-27T10:00:00.000Z',
});

const USER_ID = '0b5f0a9e-4f4c-4b43-9d7e-1b2c3d4e5f60';
const NOTICE_ID = '3f2b8c1d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const detail: UserDetail = {
  userId: USER_ID,
  phone: '13800138000',
  status: 'active',
  statusText: '正常',
  lockedAt: null,
  lockedReason: null,
  entitlements: [
    {
      kind: 'free_check',
      kindText: '免费查重',
      grantedByText: '手机号注册',
      grantedAt: '2026-11-01T01:00:00.000Z',
      usedAt: null,
      usedFor: null,
    },
  ],
  requests: [
    {
      id: '1',
      userId: USER_ID,
      kind: 'export',
      kindText: '导出个人数据',
      phone: '13800138000',
      at: '2026-11-20T02:00:00.000Z',
    },
  ],
};

function renderAt(path: string, role: Staff['role'], roleText: string) {
  const sent: { url: string; body: unknown }[] = [];
  stubFetch((url, init) => {
    sent.push({ url, body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body });
    if (url.endsWith(consoleApi.me.path)) return apiAnswer(consoleApi.me, staff(role, roleText));
    if (url.endsWith(consoleApi.userSearch.path))
      return apiAnswer(consoleApi.userSearch, [
        {
          userId: USER_ID,
          phone: '13800138000',
          realName: null,
          unitName: null,
          status: 'active',
          statusText: '正常',
          wechatBound: false,
          createdAt: '2026-11-01T01:00:00.000Z',
          lastLoginAt: '2026-11-20T01:00:00.000Z',
          orders: 2,
          paidFen: 1200,
        },
      ]);
    if (url.endsWith(userAdminApi.userDetail.path)) return apiAnswer(userAdminApi.userDetail, detail);
    if (url.endsWith(userAdminApi.userLock.path))
      return apiAnswer(userAdminApi.userLock, {
        ...detail,
        lockedAt: '2026-11-27T03:00:00.000Z',
        lockedReason: '恶意刷单',
      });
    if (url.endsWith(consoleApi.failedJobs.path)) return apiAnswer(consoleApi.failedJobs, []);
    if (url.endsWith(jobsAdminApi.stuckJobs.path))
      return apiAnswer(jobsAdminApi.stuckJobs, [
        {
          jobId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
          name: 'check.run',
          status: 'running',
          attempts: 1,
          maxAttempts: 3,
          progress: 40,
          progressText: '比对中',
          lockedBy: 'worker-a',
          lockedUntil: '2026-11-27T02:00:00.000Z',
          runAt: '2026-11-27T01:50:00.000Z',
          updatedAt: '2026-11-27T01:59:00.000Z',
          stuckMinutes: 12,
        },
      ]);
    if (url.endsWith(jobsAdminApi.stuckNotices.path))
      return apiAnswer(jobsAdminApi.stuckNotices, [
        {
          noticeId: NOTICE_ID,
          commissionNo: 'WT202611270001',
          kindText: '办理完成邮件',
          email: 'wang.laoshi@example.edu.cn',
          status: 'sending',
          statusText: '发送中',
          attempts: 1,
          lastError: null,
          messageId: `<commission-notice.${NOTICE_ID}@www.example.cn>`,
          createdAt: '2026-11-27T01:00:00.000Z',
          stuckMinutes: 7,
        },
      ]);
    if (url.endsWith(jobsAdminApi.noticeResend.path))
      return apiAnswer(jobsAdminApi.noticeResend, { noticeId: NOTICE_ID });
    if (url.endsWith(jobsAdminApi.stuckRetry.path))
      return apiAnswer(jobsAdminApi.stuckRetry, {
        jobId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
        name: 'check.run',
      });
    return undefined;
  });
  renderRoutes([{ path: '/admin/*', element: <ConsoleApp /> }], path);
  return sent;
}

async function openAccount() {
  fireEvent.change(await screen.findByPlaceholderText('手机号或前几位（至少4位）'), {
    target: { value: '1380013' },
  });
  fireEvent.click(screen.getByRole('button', { name: '搜索' }));
  fireEvent.click(await screen.findByRole('button', { name: '账号详情' }));
  return screen.findByRole('dialog');
}

describe('console users: account detail and lock', () => {
  it('shows the free uses and requests; the admin locks with a reason', async () => {
    const sent = renderAt('/admin/users', 'admin', '管理员');
    const drawer = await openAccount();
    expect(await within(drawer).findByText('免费查重')).toBeTruthy();
    expect(within(drawer).getByText('未使用')).toBeTruthy();
    expect(within(drawer).getByText('导出个人数据')).toBeTruthy();
    fireEvent.click(within(drawer).getByRole('button', { name: '锁定账号' }));
    expect(await within(drawer).findByText('请填写锁定原因')).toBeTruthy();
    expect(sent.some((s) => s.url.endsWith(userAdminApi.userLock.path))).toBe(false);
    fireEvent.change(within(drawer).getByLabelText('锁定原因（用户不可见，记入审计日志）'), {
      target: { value: '恶意刷单' },
    });
    fireEvent.click(within(drawer).getByRole('button', { name: '锁定账号' }));
    await waitFor(() => expect(sent.some((s) => s.url.endsWith(userAdminApi.userLock.path))).toBe(true));
    expect(sent.find((s) => s.url.endsWith(userAdminApi.userLock.path))!.body).toEqual({
      userId: USER_ID,
      reason: '恶意刷单',
    });
    expect(await within(drawer).findByRole('button', { name: '解锁账号' })).toBeTruthy();
  });

  it('support sees the account without lock buttons', async () => {
    renderAt('/admin/users', 'support', '客服');
    const drawer = await openAccount();
    expect(await within(drawer).findByText('客服只能查看；锁定与解锁由管理员操作。')).toBeTruthy();
    expect(within(drawer).queryByRole('button', { name: '锁定账号' })).toBeNull();
  });
});

describe('console jobs: stuck jobs', () => {
  it('lists a job past its lease beside the failed ones and queues it again', async () => {
    const sent = renderAt('/admin/jobs', 'admin', '管理员');
    fireEvent.click(await screen.findByRole('tab', { name: '卡住的任务' }));
    const row = (await screen.findByText('check.run')).closest('tr')!;
    expect(within(row).getByText('运行超时')).toBeTruthy();
    expect(within(row).getByText('12 分钟')).toBeTruthy();
    expect(within(row).getByText('40% 比对中')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: '重新排队' }));
    await waitFor(() => expect(sent.some((s) => s.url.endsWith(jobsAdminApi.stuckRetry.path))).toBe(true));
    expect(sent.find((s) => s.url.endsWith(jobsAdminApi.stuckRetry.path))!.body).toEqual({
      jobId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
    });
  });
});

describe('console jobs: e-mail notices that did not go out', () => {
  it('lists a notice left 发送中 past its lease and sends it again', async () => {
    const sent = renderAt('/admin/jobs', 'admin', '管理员');
    fireEvent.click(await screen.findByRole('tab', { name: '未送达的邮件通知' }));
    const row = (await screen.findByText('WT202611270001')).closest('tr')!;
    expect(within(row).getByText('办理完成邮件')).toBeTruthy();
    expect(within(row).getByText('发送中')).toBeTruthy();
    expect(within(row).getByText('7 分钟')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: '重新发送' }));
    await waitFor(() => expect(sent.some((s) => s.url.endsWith(jobsAdminApi.noticeResend.path))).toBe(true));
    expect(sent.find((s) => s.url.endsWith(jobsAdminApi.noticeResend.path))!.body).toEqual({
      noticeId: NOTICE_ID,
    });
  });
});
