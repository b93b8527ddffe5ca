/**
 * The SMS provider interface the accounts module sends check codes through. One implementation per
 * outside service (Aliyun, Tencent Cloud) plus the sandbox outbox; chosen by configuration.
 */

/** What to send: one check code to one mainland phone. */
export interface SmsSendInput {
  /** 11-digit mainland mobile number; a leading `+86`/`86` and spaces are tolerated. */
  phone: string;
  /** Why the code is sent (the spec's sendCheckCode type: '1' register, '2' bind, '3' reset, '4' deletion). */
  purpose: string;
  /** Template parameters; verification-code templates take exactly `code`. */
  params: { code: string };
  /** Overrides the configured template (Aliyun TemplateCode / Tencent TemplateId) for this message. */
  templateCode?: string;
}

export interface SmsSendResult {
  /** The provider's id for the message (Aliyun BizId, Tencent SerialNo, sandbox uuid). */
  messageId: string;
}

export interface SmsProvider {
  /** `'sandbox' | 'aliyun' | 'tencent'`, for logs and for mounting the dev controls. */
  readonly kind: SmsProviderKind;
  /**
   * Sends one message. Never retried here: a duplicate SMS is worse than a failed one the user can
   * ask again for.
   * @throws SmsInvalidPhoneError the number is malformed or rejected by the provider
   * @throws SmsRateLimitedError the provider's own per-number flow control refused it
   * @throws SmsProviderError anything else (network, timeout, credentials, signature, template)
   */
  send(input: SmsSendInput): Promise<SmsSendResult>;
}

export type SmsProviderKind = 'sandbox' | 'aliyun' | 'tencent';

/** One message as the sandbox outbox stores it. */
export interface SmsOutboxMessage {
  messageId: string;
  phone: string;
  /** The purpose (spec: type) the code was sent for. */
  type: string;
  code: string;
  /** ISO-8601 UTC. */
  sentAt: string;
  /** Which sandbox took it: the plain outbox, or the Aliyun/Tencent protocol sandbox. */
  via: SmsProviderKind;
}

/** Base class of every error an SmsProvider throws; `providerCode` is the provider's own code, if any. */
export class SmsError extends Error {
  override name: 'SmsInvalidPhoneError' | 'SmsRateLimitedError' | 'SmsProviderError' | 'SmsError' =
    'SmsError';
  readonly provider: SmsProviderKind;
  readonly providerCode: string | undefined;

  constructor(message: string, provider: SmsProviderKind, providerCode?: string, options?: ErrorOptions) {
    super(message, options);
    this.provider = provider;
    this.providerCode = providerCode;
  }
}

/** The phone number is malformed, or the provider says it is not a valid mobile number. */
export class SmsInvalidPhoneError extends SmsError {
  override name = 'SmsInvalidPhoneError' as const;
}

/** The provider's own flow control for this number (or account) refused the message. */
export class SmsRateLimitedError extends SmsError {
  override name = 'SmsRateLimitedError' as const;
}

/** Network failure, timeout, bad credentials, signature mismatch, unknown template, unexpected answer. */
export class SmsProviderError extends SmsError {
  override name = 'SmsProviderError' as const;
}

const MAINLAND_MOBILE = /^1[3-9]\d{9}$/;

/** Strips `+86`/`86`, spaces and dashes; returns the 11 digits or null if it is not 11 digits. */
export function normalizePhone(raw: string): string | null {
  let p = raw.replace(/[\s-]/g, '');
  if (p.startsWith('+86')) p = p.slice(3);
  else if (p.length === 13 && p.startsWith('86')) p = p.slice(2);
  return /^\d{11}$/.test(p) ? p : null;
}

/** True for a mainland mobile number (1[3-9] + 9 digits), the rule the providers apply. */
export function isMainlandMobile(phone: string): boolean {
  return MAINLAND_MOBILE.test(phone);
}
