import { writingApi } from '@kyfw/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import Cookies from 'js-cookie';
import { describe, expect, it } from 'vitest';
import { routes } from '../../app/router';
import { apiAnswer, makeUserInfo, renderRoutes, setUpPageTests, stubFetch } from '../../testing/test-utils';
import { sessionStore } from '../auth';
import { draftView } from './testing';

setUpPageTests();

// The leave confirmation (spec §2) on a writing's page: it asks only while the page holds input the
// server does not have yet — an edited outline not saved, a revision request typed but not sent.

function leaveAsks(): boolean {
  const event = new Event('beforeunload', { cancelable: true });
  Object.defineProperty(event, 'returnValue', { value: '', writable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

function openWriting(status: 'draft' | 'done') {
  Cookies.set('token', 't-1');
  sessionStore.setState({ userInfo: makeUserInfo({ id: '1' }), checked: true });
  stubFetch((url) =>
    url.endsWith(writingApi.query.path) ? apiAnswer(writingApi.query, draftView(status)) : undefined,
  );
  renderRoutes(routes, '/ai/dissertation?id=w1');
}

describe('leave confirmation on a writing', () => {
  it('asks once the outline is edited, not before', async () => {
    openWriting('draft');
    const name = await screen.findByLabelText('条目 1 名称');
    expect(leaveAsks()).toBe(false);
    fireEvent.change(name, { target: { value: '引言' } });
    await waitFor(() => expect(leaveAsks()).toBe(true));
  });

  it('asks while a revision request is typed and not sent', async () => {
    openWriting('done');
    const instruction = await screen.findByLabelText('修改要求（选填）');
    expect(leaveAsks()).toBe(false);
    fireEvent.change(instruction, { target: { value: '补充一个案例' } });
    await waitFor(() => expect(leaveAsks()).toBe(true));
    fireEvent.change(instruction, { target: { value: ' ' } });
    await waitFor(() => expect(leaveAsks()).toBe(false));
  });
});
