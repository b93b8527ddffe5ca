import { ErrorCode, writingApi } from '@kyfw/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import Cookies from 'js-cookie';
import { describe, expect, it } from 'vitest';
import { routes } from '../../app/router';
import {
  apiAnswer,
  jsonResponse,
  makeUserInfo,
  recordMessages,
  renderRoutes,
  setUpPageTests,
  stubFetch,
} from '../../testing/test-utils';
import { sessionStore } from '../auth';
import { draftView } from './testing';

setUpPageTests();

// Free AI calls under quotas (decision 0028): the page shows the server's refusal, which says when
// to try again; a paid writing waiting for a worker says 排队中 and its place instead of a percentage.

const logIn = () => {
  Cookies.set('token', 't-1');
  sessionStore.setState({ userInfo: makeUserInfo({ id: '1' }), checked: true });
};

describe('AI writing under the quotas', () => {
  it('shows the quota refusal with when to try again', async () => {
    logIn();
    const toasts = recordMessages();
    const refusal = '今日免费AI生成次数已用完，请于明天 00:00 后再试';
    stubFetch((url) =>
      url.endsWith(writingApi.title.path)
        ? jsonResponse({ code: ErrorCode.AI_QUOTA_EXHAUSTED, message: refusal, data: null })
        : undefined,
    );
    renderRoutes(routes, '/ai/dissertation');
    fireEvent.change(await screen.findByPlaceholderText('例如：城市社区养老服务'), {
      target: { value: '城市社区养老服务' },
    });
    fireEvent.click(screen.getByRole('button', { name: '生成题目' }));
    await waitFor(() => expect(toasts).toContainEqual({ type: 'error', content: refusal }));
  });

  it('says 排队中 and the place in the queue while the paid job waits for a worker', async () => {
    logIn();
    const queued = {
      ...draftView('draft'),
      orderId: 'o1',
      status: 'writing' as const,
      statusText: '排队中，前面还有 3 个任务',
      progress: 0,
      queueAhead: 3,
    };
    stubFetch((url) =>
      url.endsWith(writingApi.query.path) ? apiAnswer(writingApi.query, queued) : undefined,
    );
    renderRoutes(routes, '/ai/dissertation?id=w1');
    expect((await screen.findByTestId('writing-queued')).textContent).toContain('排队中，前面还有 3 个任务');
    expect(screen.queryByRole('progressbar')).toBeNull();
  });
});
