import { writingApi } from '@kyfw/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import Cookies from 'js-cookie';
import { describe, expect, it } from 'vitest';
import { routes } from '../../app/router';
import { apiAnswer, makeUserInfo, renderRoutes, setUpPageTests, stubFetch } from '../../testing/test-utils';
import { sessionStore } from '../auth';
import { draftView } from './testing';

setUpPageTests();

// The references card of a draft: the search sends the writing (its own references are searched
// too) and marks them; pasted references are read by the server and the unreadable lines shown.

describe('references of a draft', () => {
  it('searches with the writing, marks the student’s own, and adds pasted ones', async () => {
    Cookies.set('token', 't-1');
    sessionStore.setState({ userInfo: makeUserInfo({ id: '1' }), checked: true });
    const bodies: Record<string, unknown>[] = [];
    stubFetch((url, init) => {
      if (url.endsWith(writingApi.query.path)) return apiAnswer(writingApi.query, draftView('draft'));
      if (url.endsWith(writingApi.searchReference.path)) {
        bodies.push(JSON.parse(String(init.body)));
        const source = {
          authors: ['陈静'],
          year: 2019,
          source: '中国老年学杂志',
          type: 'J',
          discipline: null,
        };
        return apiAnswer(writingApi.searchReference, {
          list: [
            {
              ...source,
              title: '居家养老服务满意度研究',
              origin: 'supplied',
              formatted: '陈静. 居家养老服务满意度研究[J]. 中国老年学杂志, 2019.',
            },
          ],
          total: 1,
          message: '在文献库中检索到 1 篇相关文献（只列出真实存在的记录，不编造）',
        });
      }
      if (url.endsWith(writingApi.analysisReference.path)) {
        bodies.push(JSON.parse(String(init.body)));
        return apiAnswer(writingApi.analysisReference, {
          list: [
            {
              raw: '陈静. 居家养老服务满意度研究[J]. 中国老年学杂志, 2019.',
              fields: null,
              formatted: '陈静. 居家养老服务满意度研究[J]. 中国老年学杂志, 2019.',
            },
            { raw: '随便一行字', fields: null, formatted: null },
          ],
        });
      }
      return undefined;
    });
    renderRoutes(routes, '/ai/dissertation?id=w1');
    const card = await screen.findByTestId('writing-references');
    fireEvent.click(await screen.findByRole('button', { name: '检索' }));
    await waitFor(() => expect(card.textContent).toContain('居家养老服务满意度研究[J]'));
    expect(card.textContent).toContain('（你提供）');
    expect(bodies[0]).toMatchObject({ writingId: 'w1', keyword: '城市社区养老服务供给研究' });

    fireEvent.change(screen.getByLabelText('你的参考文献（每行一条，GB/T 7714 格式）'), {
      target: { value: '陈静. 居家养老服务满意度研究[J]. 中国老年学杂志, 2019.\n随便一行字' },
    });
    fireEvent.click(screen.getByRole('button', { name: '识别并加入' }));
    const result = await screen.findByTestId('writing-own-references');
    expect(result.textContent).toContain('已加入 1 条，1 条无法识别');
    expect(result.textContent).toContain('无法识别：随便一行字');
    expect(bodies[1]).toEqual({
      writingId: 'w1',
      text: '陈静. 居家养老服务满意度研究[J]. 中国老年学杂志, 2019.\n随便一行字',
    });
  });
});
