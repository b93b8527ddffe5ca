import { createHmac } from 'node:crypto';

/**
 * Aliyun RPC-style request signing, signature version 1.0 (HMAC-SHA1), as used by Dysmsapi
 * SendSms (Version 2017-05-25). Steps, from Aliyun's "RPC 签名机制" document:
 * 1. percent-encode every parameter name and value (RFC 3986: only A-Z a-z 0-9 - _ . ~ stay);
 * 2. sort the parameters by name and join `name=value` pairs with `&` (the canonical query);
 * 3. StringToSign = METHOD + '&' + percentEncode('/') + '&' + percentEncode(canonicalQuery);
 * 4. Signature = Base64(HMAC-SHA1(AccessKeySecret + '&', StringToSign)).
 * The `Signature` parameter itself never takes part.
 */

/** RFC 3986 percent-encoding as Aliyun POP wants it (encodeURIComponent leaves !'()* alone). */
export function percentEncodeAliyun(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** The sorted, percent-encoded `k=v&…` query; the Signature parameter is excluded. */
export function canonicalizeAliyunQuery(params: Record<string, string>): string {
  return Object.keys(params)
    .filter((k) => k !== 'Signature')
    .sort()
    .map((k) => `${percentEncodeAliyun(k)}=${percentEncodeAliyun(params[k]!)}`)
    .join('&');
}

export function buildAliyunStringToSign(method: string, params: Record<string, string>): string {
  return `${method.toUpperCase()}&${percentEncodeAliyun('/')}&${percentEncodeAliyun(canonicalizeAliyunQuery(params))}`;
}

/** Base64 HMAC-SHA1 signature of the request parameters with `accessKeySecret`. */
export function signAliyunRpc(
  method: string,
  params: Record<string, string>,
  accessKeySecret: string,
): string {
  return createHmac('sha1', `${accessKeySecret}&`)
    .update(buildAliyunStringToSign(method, params))
    .digest('base64');
}
