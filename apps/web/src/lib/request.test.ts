import Cookies from 'js-cookie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, messages, resetAppState, stubFetch } from '../testing/test-utils';
import { filenameFromDisposition, request } from './request';

beforeEach(() => resetAppState());
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

function headersOf(fetchMock: ReturnType<typeof stubFetch>, call = 0): Headers {
  return new Headers((fetchMock.mock.calls[call][1] as RequestInit).headers);
}

describe('request', () => {
  it('POSTs a JSON body to the configured base with the token and terminal headers', async () => {
    Cookies.set('token', 'abc123');
    const fetchMock = stubFetch(() => jsonResponse({ code: 0, message: 'ok', data: { id: 1 } }));

    const [error, data] = await request<{ id: number }>('/user/thing', { data: { a: 1 } });

    expect(error).toBeNull();
    expect(data).toEqual({ id: 1 });
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/kyfw/web/v1/user/thing');
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"a":1}');
    expect(headersOf(fetchMock).get('token')).toBe('abc123');
    expect(headersOf(fetchMock).get('terminal')).toBe('PC');
    expect(headersOf(fetchMock).get('content-type')).toBe('application/json');
  });

  it('sends an empty token header without a cookie', async () => {
    const fetchMock = stubFetch();
    await request('/x');
    expect(headersOf(fetchMock).get('token')).toBe('');
  });

  it('puts GET parameters in the query and sends no body', async () => {
    const fetchMock = stubFetch();
    await request('/home/article', { method: 'GET', data: { page: 2, q: '查重', empty: undefined } });
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe(`/kyfw/web/v1/home/article?page=2&q=${encodeURIComponent('查重')}`);
    expect(init.method).toBe('GET');
    expect(init.body).toBeUndefined();
  });

  it('returns the error and shows the server message as an error toast when code is not 0', async () => {
    stubFetch(() => jsonResponse({ code: 2001, message: '手机号已被绑定', data: null }));
    const [error, data] = await request('/websiteUser/bindPhoneNumber', { data: {} });
    expect(data).toBeUndefined();
    expect(error?.kind).toBe('business');
    expect(error?.code).toBe(2001);
    expect(error?.message).toBe('手机号已被绑定');
    expect(messages()).toEqual([{ type: 'error', content: '手机号已被绑定' }]);
  });

  it('stays quiet with silent: true', async () => {
    stubFetch(() => jsonResponse({ code: 1003, message: '请先登录', data: null }));
    const [error] = await request('/getUserInfo', { silent: true });
    expect(error?.code).toBe(1003);
    expect(messages()).toEqual([]);
  });

  it('returns network exceptions as errors without a toast', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    const [error, data] = await request('/x');
    expect(data).toBeUndefined();
    expect(error?.kind).toBe('network');
    expect(messages()).toEqual([]);
  });

  it('aborts after 30 seconds and returns a timeout error without a toast', async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise<Response>((_resolve, reject) => {
            signal = init.signal ?? undefined;
            signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
          }),
      ),
    );
    const pending = request('/slow');
    await vi.advanceTimersByTimeAsync(29_999);
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const [error] = await pending;
    expect(error?.kind).toBe('timeout');
    expect(messages()).toEqual([]);
  });

  it.each(['GET', 'PUT', 'DELETE', 'HEAD', 'OPTIONS'] as const)(
    'retries an idempotent %s once on 503',
    async (method) => {
      let calls = 0;
      const fetchMock = stubFetch(() => {
        calls += 1;
        return calls === 1
          ? new Response('busy', { status: 503 })
          : jsonResponse({ code: 0, message: 'ok', data: 'second' });
      });
      const [error, data] = await request('/x', { method });
      expect(fetchMock).toHaveBeenCalledTimes(2);
      expect(error).toBeNull();
      expect(data).toBe('second');
    },
  );

  it.each([408, 409, 425, 429, 500, 502, 503, 504])('retries GET on status %i', async (status) => {
    let calls = 0;
    const fetchMock = stubFetch(() => {
      calls += 1;
      return calls === 1 ? new Response('', { status }) : jsonResponse({ code: 0, message: 'ok', data: 1 });
    });
    await request('/x', { method: 'GET' });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('retries only once and then reports the failure', async () => {
    const fetchMock = stubFetch(() => new Response('down', { status: 502 }));
    const [error] = await request('/x', { method: 'GET' });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(error?.kind).toBe('http');
    expect(error?.status).toBe(502);
  });

  it('does not retry POST (not idempotent) nor statuses outside the list', async () => {
    const post = stubFetch(() => new Response('', { status: 503 }));
    await request('/x', { method: 'POST', silent: true });
    expect(post).toHaveBeenCalledTimes(1);

    const get404 = stubFetch(() => new Response('', { status: 404 }));
    await request('/x', { method: 'GET', silent: true });
    expect(get404).toHaveBeenCalledTimes(1);
  });

  it('returns a blob and its RFC 5987 file name', async () => {
    stubFetch(
      () =>
        new Response('%PDF-1.7', {
          status: 200,
          headers: {
            'Content-Type': 'application/pdf',
            'Content-Disposition': `attachment; filename="report.pdf"; filename*=UTF-8''${encodeURIComponent('查重报告.pdf')}`,
          },
        }),
    );
    const [error, file] = await request('/freeCheck/downloadReport', {
      data: { id: 1 },
      responseType: 'blob',
    });
    expect(error).toBeNull();
    expect(file?.filename).toBe('查重报告.pdf');
    expect(await file?.blob.text()).toBe('%PDF-1.7');
  });

  it('treats an error envelope sent instead of the expected file as an error', async () => {
    stubFetch(() => jsonResponse({ code: 1010, message: '报告不存在', data: null }));
    const [error, file] = await request('/freeCheck/downloadReport', { responseType: 'blob' });
    expect(file).toBeUndefined();
    expect(error?.code).toBe(1010);
    expect(messages()).toEqual([{ type: 'error', content: '报告不存在' }]);
  });
});

describe('filenameFromDisposition', () => {
  it('prefers filename* and decodes it', () => {
    expect(filenameFromDisposition(`attachment; filename*=UTF-8''%E8%AE%BA%E6%96%87.docx`)).toBe('论文.docx');
    expect(filenameFromDisposition(`attachment; filename*=utf-8'zh-CN'a%20b.txt; filename="x.txt"`)).toBe(
      'a b.txt',
    );
  });

  it('falls back to the plain filename', () => {
    expect(filenameFromDisposition('attachment; filename="report final.pdf"')).toBe('report final.pdf');
    expect(filenameFromDisposition('attachment; filename=plain.txt')).toBe('plain.txt');
  });

  it('returns null without a file name', () => {
    expect(filenameFromDisposition(null)).toBeNull();
    expect(filenameFromDisposition('inline')).toBeNull();
  });
});
