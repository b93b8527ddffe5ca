import { describe, expect, it } from 'vitest';
import {
  buildWechatXml,
  computeWechatSignature,
  parseWechatEvent,
  parseWechatXml,
  verifyWechatQuery,
  WechatEventFormatError,
  WechatSignatureError,
  WechatStaleEventError,
} from '../../../src/providers/wechat/index.ts';

const TOKEN = 'kyfwtoken';
const NOW = 1767225600_000; // 2026-01-01T00:00:00Z

function signedQuery(timestamp: string, nonce = '123456789', token = TOKEN) {
  return { signature: computeWechatSignature(token, timestamp, nonce), timestamp, nonce, openid: 'oUser' };
}

describe('WeChat push signature: sha1(sort(token, timestamp, nonce))', () => {
  // WeChat's guide gives the algorithm but no worked example; this vector was computed outside the
  // code under test with coreutils: printf '1234567891767225600kyfwtoken' | sha1sum.
  it('matches an independently computed vector', () => {
    expect(computeWechatSignature('kyfwtoken', '1767225600', '123456789')).toBe(
      'd0ba3671f439c6942826a35c7511ca981a7c0c5d',
    );
  });

  it('accepts a fresh signed query, also with an upper-case signature', () => {
    expect(() => verifyWechatQuery(TOKEN, signedQuery('1767225600'), NOW)).not.toThrow();
    const q = signedQuery('1767225600');
    expect(() => verifyWechatQuery(TOKEN, { ...q, signature: q.signature.toUpperCase() }, NOW)).not.toThrow();
  });

  it('rejects a tampered signature, timestamp or nonce, another token and missing fields', () => {
    const q = signedQuery('1767225600');
    const flipped = `${q.signature.slice(0, -1)}${q.signature.endsWith('0') ? '1' : '0'}`;
    expect(() => verifyWechatQuery(TOKEN, { ...q, signature: flipped }, NOW)).toThrow(WechatSignatureError);
    expect(() => verifyWechatQuery(TOKEN, { ...q, timestamp: '1767225601' }, NOW)).toThrow(
      WechatSignatureError,
    );
    expect(() => verifyWechatQuery(TOKEN, { ...q, nonce: '123456780' }, NOW)).toThrow(WechatSignatureError);
    expect(() => verifyWechatQuery('othertoken', q, NOW)).toThrow(WechatSignatureError);
    expect(() => verifyWechatQuery(TOKEN, { timestamp: q.timestamp, nonce: q.nonce }, NOW)).toThrow(
      WechatSignatureError,
    );
  });

  it('rejects a correctly signed but stale (or future) timestamp beyond 5 minutes', () => {
    expect(() => verifyWechatQuery(TOKEN, signedQuery(String(NOW / 1000 - 299)), NOW)).not.toThrow();
    expect(() => verifyWechatQuery(TOKEN, signedQuery(String(NOW / 1000 - 301)), NOW)).toThrow(
      WechatStaleEventError,
    );
    expect(() => verifyWechatQuery(TOKEN, signedQuery(String(NOW / 1000 + 301)), NOW)).toThrow(
      WechatStaleEventError,
    );
  });
});

describe('event XML', () => {
  const subscribeXml =
    '<xml><ToUserName><![CDATA[gh_123456789abc]]></ToUserName><FromUserName><![CDATA[oUser001]]></FromUserName>' +
    '<CreateTime>1767225590</CreateTime><MsgType><![CDATA[event]]></MsgType><Event><![CDATA[subscribe]]></Event>' +
    '<EventKey><![CDATA[qrscene_login:abc123]]></EventKey><Ticket><![CDATA[TICKET_1]]></Ticket></xml>';
  const scanXml =
    '<xml><ToUserName><![CDATA[gh_123456789abc]]></ToUserName><FromUserName><![CDATA[oUser001]]></FromUserName>' +
    '<CreateTime>1767225595</CreateTime><MsgType><![CDATA[event]]></MsgType><Event><![CDATA[SCAN]]></Event>' +
    '<EventKey><![CDATA[bind:xyz]]></EventKey><Ticket><![CDATA[TICKET_2]]></Ticket></xml>';

  it('parses a QR subscribe event: scene without the qrscene_ prefix, ticket, openId', () => {
    const event = parseWechatEvent(TOKEN, { query: signedQuery('1767225600'), rawBody: subscribeXml }, NOW);
    expect(event).toEqual({
      type: 'subscribe',
      openId: 'oUser001',
      toUserName: 'gh_123456789abc',
      sceneStr: 'login:abc123',
      ticket: 'TICKET_1',
      createTime: 1767225590,
      rawEvent: 'subscribe',
      idempotencyKey: 'evt:oUser001:1767225590:subscribe:qrscene_login:abc123',
    });
  });

  it('parses a SCAN event (scene as is) from a Buffer body', () => {
    const event = parseWechatEvent(
      TOKEN,
      { query: signedQuery('1767225600'), rawBody: Buffer.from(scanXml) },
      NOW,
    );
    expect(event).toMatchObject({
      type: 'SCAN',
      openId: 'oUser001',
      sceneStr: 'bind:xyz',
      ticket: 'TICKET_2',
    });
  });

  it('gives a replay of the same push the same idempotency key, and a different push another', () => {
    const a = parseWechatEvent(TOKEN, { query: signedQuery('1767225600', '111'), rawBody: scanXml }, NOW);
    const b = parseWechatEvent(TOKEN, { query: signedQuery('1767225601', '222'), rawBody: scanXml }, NOW);
    const c = parseWechatEvent(TOKEN, { query: signedQuery('1767225600'), rawBody: subscribeXml }, NOW);
    expect(b.idempotencyKey).toBe(a.idempotencyKey);
    expect(c.idempotencyKey).not.toBe(a.idempotencyKey);
  });

  it('classifies a plain subscribe, unsubscribe, menu click and a text message', () => {
    const q = signedQuery('1767225600');
    const base =
      '<ToUserName>gh_x</ToUserName><FromUserName>oU</FromUserName><CreateTime>1767225599</CreateTime>';
    const plain = parseWechatEvent(
      TOKEN,
      { query: q, rawBody: `<xml>${base}<MsgType>event</MsgType><Event>subscribe</Event></xml>` },
      NOW,
    );
    expect(plain.type).toBe('subscribe');
    expect(plain.sceneStr).toBeUndefined();
    const unsub = parseWechatEvent(
      TOKEN,
      {
        query: q,
        rawBody: `<xml>${base}<MsgType>event</MsgType><Event>unsubscribe</Event><EventKey></EventKey></xml>`,
      },
      NOW,
    );
    expect(unsub.type).toBe('unsubscribe');
    const click = parseWechatEvent(
      TOKEN,
      {
        query: q,
        rawBody: `<xml>${base}<MsgType>event</MsgType><Event>CLICK</Event><EventKey>V1</EventKey></xml>`,
      },
      NOW,
    );
    expect(click).toMatchObject({ type: 'other', rawEvent: 'CLICK' });
    const text = parseWechatEvent(
      TOKEN,
      {
        query: q,
        rawBody: `<xml>${base}<MsgType>text</MsgType><Content>你好</Content><MsgId>1234567890123456</MsgId></xml>`,
      },
      NOW,
    );
    expect(text).toMatchObject({
      type: 'other',
      rawEvent: 'text',
      msgId: '1234567890123456',
      idempotencyKey: 'msg:1234567890123456',
    });
  });

  it('refuses a bad signature before looking at the body', () => {
    const q = { ...signedQuery('1767225600'), signature: '0'.repeat(40) };
    expect(() => parseWechatEvent(TOKEN, { query: q, rawBody: 'not xml at all' }, NOW)).toThrow(
      WechatSignatureError,
    );
  });

  it('refuses encrypted-mode pushes and events without the required fields', () => {
    const q = signedQuery('1767225600');
    expect(() =>
      parseWechatEvent(TOKEN, { query: { ...q, encrypt_type: 'aes' }, rawBody: scanXml }, NOW),
    ).toThrow(WechatEventFormatError);
    expect(() =>
      parseWechatEvent(TOKEN, { query: q, rawBody: '<xml><Encrypt><![CDATA[abc]]></Encrypt></xml>' }, NOW),
    ).toThrow(WechatEventFormatError);
  });

  it('reads CDATA split around ]]>, entities, comments, a prolog and nested elements', () => {
    const fields = parseWechatXml(
      '<?xml version="1.0"?>\n<!-- pushed --><xml>\n  <A><![CDATA[x]]]]><![CDATA[>y]]></A>\n  <B>a &lt;b&gt; &amp; &#20320;&#x597D;</B>\n' +
        '  <C/>\n  <ScanCodeInfo><ScanType>qrcode</ScanType><ScanResult>1</ScanResult></ScanCodeInfo>\n</xml>\n',
    );
    expect(fields).toEqual({
      A: 'x]]>y',
      B: 'a <b> & 你好',
      C: '',
      ScanCodeInfo: { ScanType: 'qrcode', ScanResult: '1' },
    });
    const round = parseWechatXml(buildWechatXml({ Content: 'evil ]]> <tag> & more', CreateTime: 42 }));
    expect(round).toEqual({ Content: 'evil ]]> <tag> & more', CreateTime: '42' });
  });

  it('refuses DTDs, entity declarations, unknown entities, bad nesting, trailing content and huge bodies', () => {
    const bad = [
      '<?xml version="1.0"?><!DOCTYPE xml [<!ENTITY x SYSTEM "file:///etc/passwd">]><xml><A>&x;</A></xml>',
      '<xml><A>&x;</A></xml>',
      '<xml><A>1</B></xml>',
      '<xml><A>1</A>',
      '<xml><A>1</A></xml><xml></xml>',
      '<root><A>1</A></root>',
      '',
      `<xml><A>${'a'.repeat(70_000)}</A></xml>`,
      `<xml>${'<A>'.repeat(20)}${'</A>'.repeat(20)}</xml>`,
    ];
    for (const body of bad)
      expect(() => parseWechatXml(body), body.slice(0, 40)).toThrow(WechatEventFormatError);
  });
});
