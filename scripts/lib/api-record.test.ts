import { describe, expect, it } from 'vitest';
import { type ApiRecord, compareRecords, createNormaliser, formatDifferences } from './api-record.ts';

const ID_A = '0b9e1c2d-3f4a-4b5c-8d6e-7f8091a2b3c4';
const ID_B = 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b';

describe('the API record normaliser', () => {
  it('labels ids, order/check/report numbers by first appearance, the same value the same label', () => {
    const n = createNormaliser();
    const first = n.normalise({
      orderId: ID_A,
      orderNo: 'KY20261127083000123456',
      checkNo: 'JC20261127083000654321',
      list: [{ id: ID_B }, { id: ID_A }],
      reportNo: 'BG20261127ABCDEFGH',
    });
    expect(first).toEqual({
      orderId: '<id:1>',
      orderNo: '<orderNo:1>',
      checkNo: '<checkNo:1>',
      list: [{ id: '<id:2>' }, { id: '<id:1>' }],
      reportNo: '<reportNo:1>',
    });
    // Later answers of the same record keep the labels.
    expect(n.normalise({ text: `订单 ${ID_B} 已取消` })).toEqual({ text: '订单 <id:2> 已取消' });
  });

  it('replaces times, secrets, data URLs and durations, and keeps ordinary values', () => {
    const n = createNormaliser();
    expect(
      n.normalise({
        createdAt: '2026-11-27T00:47:12.345Z',
        paidAt: 1_790_000_000_000,
        token: 'eyJhbGciOi.secret.value',
        codeUrl: 'weixin://wxpay/bizpayurl?pr=abc123',
        qrCode: 'data:image/png;base64,iVBORw0KGgo=',
        verifyUrl: 'http://localhost:3101/check/verify?reportNo=BG20261127ABCDEFGH&code=7ZWE89UB',
        elapsedMs: 1234,
        chars: 2104,
        phoneNumber: '13912345678',
        message: '注册成功',
        free: true,
        freeNote: null,
      }),
    ).toEqual({
      createdAt: '<time>',
      paidAt: '<time>',
      token: '<secret>',
      codeUrl: '<secret>',
      qrCode: '<secret>',
      verifyUrl: 'http://localhost:3101/check/verify?reportNo=<reportNo:1>&code=<secret>',
      elapsedMs: '<duration>',
      chars: 2104,
      phoneNumber: '13912345678',
      message: '注册成功',
      free: true,
      freeNote: null,
    });
  });

  it('makes two runs of the same behaviour equal although every volatile value differs', () => {
    const run = (id: string, orderNo: string, at: string) => {
      const n = createNormaliser();
      return n.normalise({ code: 0, data: { orderId: id, orderNo, createdAt: at, token: `t-${id}` } });
    };
    expect(run(ID_A, 'KY20261127083000123456', '2026-11-27T00:00:00.000Z')).toEqual(
      run(ID_B, 'KY20261128090000999999', '2026-11-28T09:30:00.000Z'),
    );
  });
});

describe('comparing two records', () => {
  const record = (commit: string, exchanges: ApiRecord['exchanges']): ApiRecord => ({
    meta: { commit, recordedAt: '2026-11-27T00:00:00.000Z' },
    exchanges,
  });
  const exchange = (name: string, body: unknown, status = 200) => ({
    name,
    method: 'POST',
    path: `/${name}`,
    status,
    contentType: 'application/json',
    body,
  });

  it('finds nothing between equal records (metadata is not compared)', () => {
    const a = record('aaa', [exchange('login', { code: 0, data: { token: '<secret>' } })]);
    const b = record('bbb', [exchange('login', { code: 0, data: { token: '<secret>' } })]);
    expect(compareRecords(a, b)).toEqual([]);
  });

  it('names each changed, added and removed value with its place, and steps present in one record only', () => {
    const a = record('aaa', [
      exchange('login', { code: 2006, message: '手机号或密码错误', data: null }),
      exchange('list', { code: 0, data: { list: [{ title: '甲', kind: 'x' }], total: 1 } }),
      exchange('gone', { code: 0 }),
    ]);
    const b = record('bbb', [
      exchange('login', { code: 2006, message: '手机号或密码不正确', data: null }),
      exchange('list', {
        code: 0,
        data: { list: [{ title: '甲', extra: true }, { title: '乙' }], total: 2 },
      }),
      exchange('new', { code: 0 }, 200),
    ]);
    const differences = compareRecords(a, b);
    expect(differences).toEqual([
      { step: 'login', at: 'body.message', before: '手机号或密码错误', after: '手机号或密码不正确' },
      { step: 'list', at: 'body.data.list.length', before: 1, after: 2 },
      { step: 'list', at: 'body.data.list[0].kind', before: 'x', after: undefined },
      { step: 'list', at: 'body.data.list[0].extra', before: undefined, after: true },
      { step: 'list', at: 'body.data.total', before: 1, after: 2 },
      { step: 'gone', at: '', before: 'recorded', after: undefined },
      { step: 'new', at: '', before: undefined, after: 'recorded' },
    ]);
    expect(formatDifferences(differences.slice(0, 1))).toBe(
      'login body.message\n  before: "手机号或密码错误"\n  after:  "手机号或密码不正确"',
    );
  });

  it('reports a changed status or content type', () => {
    const a = record('a', [{ ...exchange('download', { file: true }), contentType: 'application/pdf' }]);
    const b = record('b', [
      { ...exchange('download', { code: 4009 }, 200), contentType: 'application/json' },
    ]);
    expect(compareRecords(a, b).map((d) => d.at)).toEqual(['contentType', 'body.file', 'body.code']);
  });
});
