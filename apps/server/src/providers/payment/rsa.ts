import { createPrivateKey, createPublicKey, createSign, createVerify, type KeyObject } from 'node:crypto';

/**
 * RSA keys and SHA256withRSA (PKCS#1 v1.5) signatures, the scheme of both WeChat Pay v3
 * (WECHATPAY2-SHA256-RSA2048) and Alipay RSA2.
 */

/** A key as configuration gives it: a KeyObject, PEM text, or Alipay's bare base64 DER. */
export type KeyInput = KeyObject | string | Buffer;

/**
 * Loads a private key. Accepts PEM (PKCS#8 or PKCS#1) and the bare base64 DER that Alipay's key
 * tool writes. The error never echoes the input.
 * @throws Error `invalid RSA private key` when it is not an RSA private key.
 */
export function loadPrivateKey(input: KeyInput): KeyObject {
  let key: KeyObject | undefined;
  if (typeof input === 'object' && !Buffer.isBuffer(input)) {
    key = input.type === 'private' ? input : undefined;
  } else {
    const text = Buffer.isBuffer(input) ? input.toString('utf8') : input;
    key = text.includes('-----BEGIN') ? tryKey(() => createPrivateKey(text)) : loadBareDer(text, 'private');
  }
  if (key?.asymmetricKeyType !== 'rsa') throw new Error('invalid RSA private key');
  return key;
}

/**
 * Loads a public key: PEM (SPKI or PKCS#1), bare base64 SPKI DER, or the public half of a private key.
 * @throws Error `invalid RSA public key`.
 */
export function loadPublicKey(input: KeyInput): KeyObject {
  let key: KeyObject | undefined;
  if (typeof input === 'object' && !Buffer.isBuffer(input)) {
    key = tryKey(() => (input.type === 'public' ? input : createPublicKey(input)));
  } else {
    const text = Buffer.isBuffer(input) ? input.toString('utf8') : input;
    key = text.includes('-----BEGIN') ? tryKey(() => createPublicKey(text)) : loadBareDer(text, 'public');
  }
  if (key?.asymmetricKeyType !== 'rsa') throw new Error('invalid RSA public key');
  return key;
}

function loadBareDer(text: string, kind: 'private' | 'public'): KeyObject | undefined {
  const compact = text.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) return undefined;
  const der = Buffer.from(compact, 'base64');
  if (kind === 'private') {
    return (
      tryKey(() => createPrivateKey({ key: der, format: 'der', type: 'pkcs8' })) ??
      tryKey(() => createPrivateKey({ key: der, format: 'der', type: 'pkcs1' }))
    );
  }
  return (
    tryKey(() => createPublicKey({ key: der, format: 'der', type: 'spki' })) ??
    tryKey(() => createPublicKey({ key: der, format: 'der', type: 'pkcs1' }))
  );
}

function tryKey(load: () => KeyObject): KeyObject | undefined {
  try {
    return load();
  } catch {
    return undefined;
  }
}

/** SHA256withRSA over the UTF-8 bytes of `message`, base64. Deterministic for a given key. */
export function signSha256WithRsa(message: string, privateKey: KeyObject): string {
  return createSign('RSA-SHA256').update(message, 'utf8').sign(privateKey, 'base64');
}

/** Verifies a base64 SHA256withRSA signature; false (never a throw) on any malformed input. */
export function verifySha256WithRsa(message: string, signatureBase64: string, publicKey: KeyObject): boolean {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(signatureBase64)) return false;
  try {
    return createVerify('RSA-SHA256').update(message, 'utf8').verify(publicKey, signatureBase64, 'base64');
  } catch {
    return false;
  }
}
