import { createHash, timingSafeEqual } from 'node:crypto';
import { WechatSignatureError, WechatStaleEventError } from './wechat.types.ts';

/**
 * The signature WeChat puts on every push to our server (接入指南, 验证消息来自微信服务器):
 * sort token, timestamp and nonce lexicographically, concatenate, SHA-1, lowercase hex.
 */
export function computeWechatSignature(token: string, timestamp: string, nonce: string): string {
  const joined = [token, timestamp, nonce].sort().join('');
  return createHash('sha1').update(joined, 'utf8').digest('hex');
}

/** Pushes older (or newer) than this are refused: a captured request cannot be replayed later. */
export const WECHAT_MAX_EVENT_AGE_SECONDS = 5 * 60;

/** First string of a query value (Fastify gives string | string[] | undefined). */
export function queryString(query: Record<string, unknown>, name: string): string {
  const v = query[name];
  if (typeof v === 'string') return v;
  if (Array.isArray(v) && typeof v[0] === 'string') return v[0];
  return '';
}

/**
 * Checks `signature`, `timestamp` and `nonce` of a callback query.
 * @throws WechatSignatureError when missing or not matching, WechatStaleEventError when too old/new
 */
export function verifyWechatQuery(
  token: string,
  query: Record<string, unknown>,
  nowMs: number,
  maxAgeSeconds: number = WECHAT_MAX_EVENT_AGE_SECONDS,
): void {
  const signature = queryString(query, 'signature');
  const timestamp = queryString(query, 'timestamp');
  const nonce = queryString(query, 'nonce');
  if (!signature || !timestamp || !nonce)
    throw new WechatSignatureError('signature, timestamp or nonce missing');
  const expected = Buffer.from(computeWechatSignature(token, timestamp, nonce));
  const given = Buffer.from(signature.toLowerCase());
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new WechatSignatureError('signature does not match');
  }
  // Checked after the signature so that an unsigned request learns nothing about our clock.
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(nowMs / 1000 - Number(timestamp)) > maxAgeSeconds) {
    throw new WechatStaleEventError(`timestamp ${timestamp} is more than ${maxAgeSeconds} s from now`);
  }
}
