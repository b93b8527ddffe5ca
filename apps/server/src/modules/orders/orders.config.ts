import { OPERATOR_SCOPES, type OperatorScope } from '@kyfw/contracts';
import { z } from 'zod';
import { envVar as env, integer } from '../../lib/env.ts';
import { listPaymentConfigProblems, Secret } from '../../providers/payment/index.ts';
import { type PaymentConfig, paymentConfigSchema } from '../../providers/payment/payment.config.ts';

/**
 * Environment of the orders module, merged into the server's env schema (config.ts) together with
 * the payment providers' fragment (`paymentConfigSchema`). Everything is optional: the embedded
 * default runs on the payment sandboxes with demo bank-transfer details.
 */

const text = (max: number) =>
  env(
    z
      .string()
      .trim()
      .max(max, { error: `must be at most ${max} characters` })
      .optional(),
  );

export const ordersEnvSchema = z.object({
  PAYMENT_PROVIDER: env(z.enum(['sandbox', 'real'], { error: 'must be sandbox or real' }).optional()),
  ORDER_EXPIRE_MINUTES: env(integer(5, 7 * 24 * 60).default(120)),
  // No zod rule may fail on it (a schema failure prints the value); its length is checked in
  // listOrdersConfigProblems, which names the variable only.
  OPERATOR_TOKEN: env(
    z
      .string()
      .optional()
      .transform((value) => (value === undefined ? undefined : new Secret(value))),
  ),
  // What the token may do: scopes separated by commas or spaces (OPERATOR_SCOPES); none by default.
  OPERATOR_TOKEN_SCOPES: env(
    z
      .string()
      .optional()
      .transform((value) => (value ?? '').split(/[\s,]+/).filter(Boolean))
      .refine((scopes) => scopes.every((s) => (OPERATOR_SCOPES as readonly string[]).includes(s)), {
        error: `must list scopes among ${OPERATOR_SCOPES.join(', ')} (comma-separated)`,
      })
      .transform((scopes) => [...new Set(scopes)] as OperatorScope[]),
  ),
  OFFLINE_BANK_NAME: text(60),
  OFFLINE_BANK_ACCOUNT_NAME: text(60),
  OFFLINE_BANK_ACCOUNT_NO: env(
    z
      .string()
      .trim()
      .regex(/^[0-9 ]{8,40}$/, { error: 'must be 8-40 digits (spaces allowed)' })
      .optional(),
  ),
  OFFLINE_PAYMENT_NOTE: text(200),
  OFFLINE_PROOF_MAX_BYTES: env(integer(1024, 50 * 1024 * 1024).default(10 * 1024 * 1024)),
  INVOICE_SELLER_NAME: text(60),
  INVOICE_SELLER_TAXPAYER_ID: env(
    z
      .string()
      .trim()
      .regex(/^[0-9A-HJ-NPQRTUWXY]{18}$/, { error: 'must be an 18-character unified social credit code' })
      .optional(),
  ),
});

type OrdersEnv = z.output<typeof ordersEnvSchema> &
  PaymentConfig & { PROVIDERS: 'sandbox' | 'real'; NODE_ENV: string; PUBLIC_BASE_URL: string };

/** Demo transfer details shown only with the sandbox payment providers. */
const SANDBOX_BANK = {
  bankName: '沙箱银行北京中关村支行',
  accountName: '科研服务网（沙箱演示账户）',
  accountNo: '6222 0000 0000 0000 000',
  note: '沙箱演示：请勿真实转账。转账时请在附言中填写订单号。',
};

export interface OfflinePaymentConfig {
  /** False when no bank account is configured (real providers without OFFLINE_BANK_*). */
  enabled: boolean;
  bankName: string;
  accountName: string;
  accountNo: string;
  note: string;
}

export function ordersConfigOf(e: OrdersEnv) {
  const paymentProvider = e.PAYMENT_PROVIDER ?? e.PROVIDERS;
  const isSandbox = paymentProvider === 'sandbox';
  const keys = Object.keys(paymentConfigSchema.shape) as (keyof PaymentConfig)[];
  const payment = Object.fromEntries(keys.map((k) => [k, e[k]])) as PaymentConfig;
  const configuredBank = e.OFFLINE_BANK_NAME && e.OFFLINE_BANK_ACCOUNT_NAME && e.OFFLINE_BANK_ACCOUNT_NO;
  const offline: OfflinePaymentConfig = configuredBank
    ? {
        enabled: true,
        bankName: e.OFFLINE_BANK_NAME!,
        accountName: e.OFFLINE_BANK_ACCOUNT_NAME!,
        accountNo: e.OFFLINE_BANK_ACCOUNT_NO!,
        note: e.OFFLINE_PAYMENT_NOTE ?? '转账时请在附言中填写订单号，到账确认后订单自动更新。',
      }
    : isSandbox
      ? { enabled: true, ...SANDBOX_BANK }
      : { enabled: false, bankName: '', accountName: '', accountNo: '', note: '' };
  return {
    /** WeChat Pay + Alipay: the loopback sandboxes or the real platforms (PAYMENT_PROVIDER, else PROVIDERS). */
    paymentProvider,
    /** WECHATPAY_* / ALIPAY_* / PAY_SANDBOX_NOTIFY_RETRY_MS (providers/payment). */
    payment,
    /** Unpaid orders expire (and are closed at the platform) this long after creation. */
    expireMinutes: e.ORDER_EXPIRE_MINUTES,
    /** Operator API credential (header x-operator-token); unset: the operator API refuses everything. */
    operatorToken: e.OPERATOR_TOKEN,
    /** What the token may do (OPERATOR_TOKEN_SCOPES); empty: every call is refused for its scope. */
    operatorScopes: e.OPERATOR_TOKEN_SCOPES,
    offline,
    proofMaxBytes: e.OFFLINE_PROOF_MAX_BYTES,
    invoice: {
      sellerName: e.INVOICE_SELLER_NAME ?? '科研服务网',
      sellerTaxpayerId: e.INVOICE_SELLER_TAXPAYER_ID ?? null,
      /** Sandbox invoices say they are samples. */
      isSample: isSandbox,
    },
  };
}

export type OrdersConfig = ReturnType<typeof ordersConfigOf>;

/** Cross-variable problems: real payment credentials, https notification URLs, no sandbox in production. */
export function listOrdersConfigProblems(e: OrdersEnv, allowSandboxInProduction: boolean): string[] {
  const config = ordersConfigOf(e);
  const problems = listPaymentConfigProblems(config.payment, config.paymentProvider);
  const operatorToken = config.operatorToken?.reveal();
  if (operatorToken !== undefined && operatorToken.trim().length < 24) {
    problems.push('OPERATOR_TOKEN: must be at least 24 characters (use a long random value)');
  }
  if (config.paymentProvider === 'real' && !e.PUBLIC_BASE_URL.startsWith('https://')) {
    problems.push(
      'PUBLIC_BASE_URL: must be https:// with real payment providers (their notifications need it)',
    );
  }
  if (
    e.NODE_ENV === 'production' &&
    config.paymentProvider === 'sandbox' &&
    e.PROVIDERS === 'real' &&
    !allowSandboxInProduction
  ) {
    problems.push('PAYMENT_PROVIDER: sandbox is refused with NODE_ENV=production');
  }
  return problems;
}
