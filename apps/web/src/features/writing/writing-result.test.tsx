import { writingApi } from '@kyfw/contracts';
import { fireEvent, screen, within } from '@testing-library/react';
import Cookies from 'js-cookie';
import { describe, expect, it } from 'vitest';
import { routes } from '../../app/router';
import { apiAnswer, makeUserInfo, renderRoutes, setUpPageTests, stubFetch } from '../../testing/test-utils';
import { sessionStore } from '../auth';
import { draftView } from './testing';
import type { WritingView } from './types';

setUpPageTests();

// What a student reads about a finished or failed draft: the failure's refund as the order says it
// (已自动退款 only once the refund succeeded), and every written section in 修改章节.

function open(view: WritingView) {
  Cookies.set('token', 't-1');
  sessionStore.setState({ userInfo: makeUserInfo({ id: '1' }), checked: true });
  stubFetch((url) => (url.endsWith(writingApi.query.path) ? apiAnswer(writingApi.query, view) : undefined));
  renderRoutes(routes, '/ai/dissertation?id=w1');
}

describe('a failed draft says where the money is, as its refund says', () => {
  it('refused by the platform: no 已自动退款, customer service takes over', async () => {
    open(
      draftView('failed', {
        statusText: '全文生成失败，退款未能自动完成，客服将与您联系处理',
        refundState: 'refused',
      }),
    );
    const alert = await screen.findByTestId('writing-failed');
    expect(alert.textContent).toContain('全文生成失败，退款未能自动完成，客服将与您联系处理');
    expect(alert.textContent).toContain('客服会在工作日内联系你');
    expect(document.body.textContent).not.toContain('已自动退款');
    expect(document.body.textContent).not.toContain('已自动退还');
  });

  it('refund under way, then refunded', async () => {
    open(draftView('failed', { statusText: '全文生成失败，正在自动退款', refundState: 'refunding' }));
    expect((await screen.findByTestId('writing-failed')).textContent).toContain('正在自动退款');
    expect(document.body.textContent).not.toContain('已自动退款');
  });

  it('refunded: says so', async () => {
    open(draftView('failed', { statusText: '全文生成失败，已自动退款', refundState: 'refunded' }));
    expect((await screen.findByTestId('writing-failed')).textContent).toContain('全文生成失败，已自动退款');
  });
});

describe('修改章节 lists every written section', () => {
  it('includes the conclusion chapter that has no sub-sections, after ten others', async () => {
    const flags = { form: '0', formula: '0', code: '0', picture: '0' } as const;
    const child = (name: string) => ({ name, wordCount: 200, ...flags });
    const view: WritingView = {
      ...draftView('done'),
      outline: [
        { name: '绪论', wordCount: 600, ...flags, children: ['背景', '现状', '方法'].map(child) },
        { name: '理论', wordCount: 400, ...flags, children: ['概念', '理论基础'].map(child) },
        { name: '分析', wordCount: 600, ...flags, children: ['现状描述', '问题', '成因'].map(child) },
        { name: '对策', wordCount: 400, ...flags, children: ['思路', '措施'].map(child) },
        { name: '结论与展望', wordCount: 300, ...flags },
      ],
    };
    open(view);
    const revise = await screen.findByTestId('writing-revise');
    fireEvent.mouseDown(within(revise).getByRole('combobox'));
    expect(await screen.findByText('第5章 结论与展望')).toBeTruthy();
    expect(screen.getByText('4.2 措施')).toBeTruthy();
  });
});
