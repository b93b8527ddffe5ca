import { ORDER_STATUSES, SERVICE_TYPES, type StaffRoleName } from '@kyfw/contracts';
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Kysely table types, one interface per table of packages/db/migrations. Column names are the
 * database's snake_case; repositories map rows to camelCase.
 *
 * jsonb columns are written as JSON text (JSON.stringify) and read back parsed: pg would turn a JS
 * array parameter into a PostgreSQL array literal, so passing text is the one form both drivers
 * agree on.
 *
 * One file, however long, on purpose: Kysely reads every table from the one `Database` interface at
 * the end, and the tables are listed in the order of the migrations that make them, so a change of a
 * migration and of its types sit side by side.
 */

/** timestamptz: read as Date; written as Date or ISO text. */
export type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** timestamptz with a database default. */
export type GeneratedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export interface JobsTable {
  id: Generated<string>;
  name: string;
  payload: ColumnType<unknown, string | undefined, string>;
  status: ColumnType<JobStatus, JobStatus | undefined, JobStatus>;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  run_at: GeneratedTimestamp;
  locked_by: string | null;
  locked_until: Timestamp | null;
  last_error: string | null;
  progress: Generated<number>;
  progress_text: string | null;
  result: ColumnType<unknown, string | null | undefined, string | null>;
  dedupe_key: string | null;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
  finished_at: Timestamp | null;
}

export interface SiteSettingsTable {
  id: Generated<number>;
  name: string;
  contact_phone: string;
  company_address: string;
  qr_code: string;
  record_number: string;
  copyright: string;
  updated_at: GeneratedTimestamp;
}

export interface FriendLinksTable {
  id: Generated<number>;
  name: string;
  url: string;
  sort_order: Generated<number>;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

export interface SchemaMigrationsTable {
  version: string;
  name: string;
  checksum: string;
  applied_at: GeneratedTimestamp;
}

export interface Database {
  jobs: JobsTable;
  site_settings: SiteSettingsTable;
  friend_links: FriendLinksTable;
  schema_migrations: SchemaMigrationsTable;
}

export type JobRow = Selectable<JobsTable>;
export type NewJobRow = Insertable<JobsTable>;
export type JobRowUpdate = Updateable<JobsTable>;
export type SiteSettingsRow = Selectable<SiteSettingsTable>;
export type FriendLinkRow = Selectable<FriendLinksTable>;

// ---------------------------------------------------------------------------------------------
// Accounts (migration 0003_accounts.sql). Declared as a second `Database` interface, which
// TypeScript merges with the one above, so other modules can append their tables the same way.

export const USER_STATUSES = ['active', 'closed', 'deleted'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export interface UsersTable {
  id: Generated<string>;
  phone_number: string | null;
  password_hash: string | null;
  wx_open_id: string | null;
  real_name: string | null;
  unit_name: string | null;
  gender: 'male' | 'female' | null;
  major: string | null;
  education: string | null;
  status: ColumnType<UserStatus, UserStatus | undefined, UserStatus>;
  last_login_at: GeneratedTimestamp;
  password_changed_at: Timestamp | null;
  closed_at: Timestamp | null;
  /** Locked by an operator (migration 0044): no login by any method; null when not locked. */
  locked_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  locked_reason: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

export type SessionLoginMethod = 'password' | 'register' | 'wechat';
export type SessionRevokeReason =
  | 'logout'
  | 'password_change'
  | 'password_reset'
  | 'account_deleted'
  | 'account_closed'
  | 'account_locked';

export interface SessionsTable {
  id: Generated<string>;
  token_hash: string;
  user_id: string;
  login_method: SessionLoginMethod;
  created_at: GeneratedTimestamp;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  revoke_reason: SessionRevokeReason | null;
  user_agent: string | null;
  client_ip: string | null;
}

/** The spec's sendCheckCode types: 1 register, 2 bind phone, 3 reset password, 4 account deletion. */
export type SmsCodePurpose = '1' | '2' | '3' | '4';

export interface SmsCodesTable {
  id: Generated<string>;
  phone: string;
  purpose: SmsCodePurpose;
  code_hash: string;
  user_id: string | null;
  client_ip: string;
  attempts: Generated<number>;
  created_at: GeneratedTimestamp;
  expires_at: Timestamp;
  consumed_at: Timestamp | null;
  superseded_at: Timestamp | null;
}

export interface LoginAttemptsTable {
  id: Generated<number>;
  phone: string;
  client_ip: string;
  succeeded: boolean;
  created_at: GeneratedTimestamp;
  /** Null while the password of this try is being checked (0014). */
  settled_at: Date | null;
}

/** Request-limit counters of the scaled mode (0015): hits per bucket and fixed window. */
export interface RateLimitHitsTable {
  bucket: string;
  window_start: Date;
  hits: number;
}

export type AccountRateAction = 'qr_code' | 'query_phone';

export interface AccountRateEventsTable {
  id: Generated<number>;
  action: AccountRateAction;
  subject: string;
  created_at: GeneratedTimestamp;
}

export type WechatSessionKind = 'login' | 'bind' | 'delete';
export type WechatSessionStatus = 'pending' | 'done' | 'claimed' | 'failed';
export type WechatSessionFailure = 'open_id_taken' | 'open_id_mismatch' | 'account_unavailable';

export interface WechatLoginSessionsTable {
  id: string;
  kind: WechatSessionKind;
  scene: string;
  ticket: string;
  requester_hash: string | null;
  requester_user_id: string | null;
  status: ColumnType<WechatSessionStatus, WechatSessionStatus | undefined, WechatSessionStatus>;
  failure: WechatSessionFailure | null;
  user_id: string | null;
  created_at: GeneratedTimestamp;
  expires_at: Timestamp;
  completed_at: Timestamp | null;
}

export interface WechatEventsTable {
  dedupe_key: string;
  event: string;
  scene: string | null;
  received_at: GeneratedTimestamp;
}

export const ENTITLEMENT_KINDS = ['free_check', 'free_aigc_detection', 'ai_writing_trial'] as const;
export type EntitlementKind = (typeof ENTITLEMENT_KINDS)[number];
export type EntitlementGrantedBy = 'phone_bind' | 'wechat_bind' | 'phone_register' | 'wechat_register';

export interface EntitlementsTable {
  id: Generated<string>;
  user_id: string;
  kind: EntitlementKind;
  granted_by: EntitlementGrantedBy;
  granted_at: GeneratedTimestamp;
  used_at: Timestamp | null;
  used_for: string | null;
}

export interface AccountNoticesTable {
  id: Generated<string>;
  user_id: string;
  kind: 'inactivity';
  channel: 'sms' | 'record';
  last_login_at: Timestamp;
  sent_at: Timestamp;
  close_after: Timestamp;
}

/**
 * Keyed one-way digests (HMAC-SHA256 under a server secret) of the phone numbers and WeChat openids
 * that already earned the binding's free services on an account since deleted or closed (migration
 * 0007_account_abuse.sql). Nothing else about the account is kept with them.
 */
export interface EntitlementGrantDigestsTable {
  digest: string;
  kind: 'phone' | 'wechat';
  recorded_at: GeneratedTimestamp;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  sms_codes: SmsCodesTable;
  login_attempts: LoginAttemptsTable;
  rate_limit_hits: RateLimitHitsTable;
  account_rate_events: AccountRateEventsTable;
  wechat_login_sessions: WechatLoginSessionsTable;
  wechat_events: WechatEventsTable;
  entitlements: EntitlementsTable;
  account_notices: AccountNoticesTable;
  entitlement_grant_digests: EntitlementGrantDigestsTable;
}

/** A self-service data export or account deletion (migration 0044): who (the account id), what, when. */
export interface AccountRequestsTable {
  id: Generated<string>;
  user_id: string;
  kind: 'export' | 'deletion';
  requested_at: GeneratedTimestamp;
}

export interface Database {
  account_requests: AccountRequestsTable;
}

export type UserRow = Selectable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type SmsCodeRow = Selectable<SmsCodesTable>;
export type WechatLoginSessionRow = Selectable<WechatLoginSessionsTable>;
export type EntitlementRow = Selectable<EntitlementsTable>;

// ---------------------------------------------------------------------------------------------
// Orders and payment (migration 0004_orders.sql), merged into `Database` like the accounts tables.

// One list of services and order statuses for the wire and the tables (the CHECKs of 0004 match it).
export { ORDER_STATUSES, SERVICE_TYPES };
export type ServiceType = (typeof SERVICE_TYPES)[number];
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export type OrderPayChannel = 'wx' | 'ali' | 'offline';
export type OrderActor = 'user' | 'system' | 'provider' | 'operator';

/** jsonb written as JSON text, read back parsed. */
type Json<T = unknown> = ColumnType<T, string | undefined, string>;

export interface GoodsTable {
  id: string;
  service_type: ServiceType;
  name: string;
  description: Generated<string>;
  unit_price_fen: number;
  unit_size: Generated<number>;
  unit: string;
  min_quantity: Generated<number>;
  max_quantity: number;
  free_rule: ColumnType<unknown, string | null | undefined, string | null>;
  /** Check goods: the library collections compared against (migration 0017); null: all. */
  library_collections: ColumnType<string[] | null, string[] | null | undefined, string[] | null>;
  /**
   * Check goods: the collections it is not sold without (migration 0038; 硕博: thesis); while one of
   * them holds no document the goods cannot be ordered. null: none beyond a non-empty scope.
   */
  library_required: ColumnType<string[] | null, string[] | null | undefined, string[] | null>;
  /** Commission goods: calendar days from payment to delivery (migration 0047); null: no promise. */
  turnaround_days: ColumnType<number | null, number | null | undefined, number | null>;
  active: Generated<boolean>;
  sort_order: Generated<number>;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

export interface OrdersTable {
  id: Generated<string>;
  order_no: string;
  user_id: string;
  service_type: ServiceType;
  goods_id: string;
  goods_name: string;
  unit_price_fen: number;
  unit_size: number;
  unit: string;
  quantity: number;
  amount_fen: number;
  status: ColumnType<OrderStatus, OrderStatus | undefined, OrderStatus>;
  pay_channel: OrderPayChannel | null;
  paid_at: Timestamp | null;
  expire_at: Timestamp;
  service_ref: string | null;
  meta: Json;
  refunded_fen: Generated<number>;
  paid_hooks_at: Timestamp | null;
  deleted_by_user: Generated<boolean>;
  deleted_at: Timestamp | null;
  /** The service could not be delivered: the payment is refunded automatically (0006_money_fixes). */
  undelivered_at: Timestamp | null;
  /** What happened, in a few words (检测失败); set exactly when undelivered_at is. */
  undelivered_text: string | null;
  /**
   * The automatic refund of an undelivered order was refused by the platform (or cannot be made by
   * it): an operator takes over (0008_deletion_refunds). Only with undelivered_at.
   */
  auto_refund_failed_at: Timestamp | null;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

export interface OrderTransitionsTable {
  id: Generated<number>;
  order_id: string;
  from_status: OrderStatus | null;
  to_status: OrderStatus;
  actor: OrderActor;
  reason: string;
  created_at: GeneratedTimestamp;
}

export type PaymentAttemptStatus = 'open' | 'closed' | 'paid';

export interface PaymentAttemptsTable {
  id: Generated<string>;
  order_id: string;
  channel: 'wx' | 'ali';
  out_trade_no: string;
  amount_fen: number;
  code_url: string | null;
  status: ColumnType<PaymentAttemptStatus, PaymentAttemptStatus | undefined, PaymentAttemptStatus>;
  expire_at: Timestamp;
  last_queried_at: Timestamp | null;
  closed_at: Timestamp | null;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

export type PaymentStatus = 'accepted' | 'late' | 'duplicate' | 'amount_mismatch';
export type PaymentSource = 'notification' | 'reconciliation' | 'operator';

export interface PaymentsTable {
  id: Generated<string>;
  order_id: string;
  attempt_id: string | null;
  channel: OrderPayChannel;
  transaction_id: string;
  amount_fen: number;
  paid_at: Timestamp;
  status: PaymentStatus;
  source: PaymentSource;
  flagged: Generated<boolean>;
  flag_reason: string | null;
  refunded_fen: Generated<number>;
  raw: Json;
  created_at: GeneratedTimestamp;
}

export type RefundStatus = 'pending' | 'processing' | 'succeeded' | 'failed';

export interface RefundsTable {
  id: Generated<string>;
  order_id: string;
  payment_id: string;
  refund_no: string;
  amount_fen: number;
  reason: string;
  status: ColumnType<RefundStatus, RefundStatus | undefined, RefundStatus>;
  actor: 'system' | 'operator';
  provider_refund_id: string | null;
  last_error: string | null;
  attempts: Generated<number>;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
  finished_at: Timestamp | null;
  /** A failed refund completed by hand: the operator's username and how (migration 0031). */
  handled_by: ColumnType<string | null, string | null | undefined, string | null>;
  handled_note: ColumnType<string | null, string | null | undefined, string | null>;
}

export type OfflineProofStatus = 'pending' | 'confirmed' | 'rejected';

export interface OfflineProofsTable {
  id: Generated<string>;
  order_id: string;
  user_id: string;
  file_key: string | null;
  mime_type: 'image/png' | 'image/jpeg' | 'image/webp' | 'application/pdf';
  size_bytes: number;
  status: ColumnType<OfflineProofStatus, OfflineProofStatus | undefined, OfflineProofStatus>;
  review_note: string | null;
  reviewed_at: Timestamp | null;
  created_at: GeneratedTimestamp;
}

export interface InvoicesTable {
  id: Generated<string>;
  invoice_no: string;
  user_id: string;
  title_type: 'personal' | 'company';
  title: string;
  taxpayer_id: string | null;
  email: string | null;
  amount_fen: number;
  status: ColumnType<'requested' | 'issued', 'requested' | 'issued' | undefined, 'requested' | 'issued'>;
  pdf_file_key: string | null;
  issued_at: Timestamp | null;
  /** When the mail server took the e-mail with the PDF (null: not sent yet). */
  emailed_at: Timestamp | null;
  /** 红冲 recorded by an operator (migration 0039); with its note (red invoice number). */
  reversed_at: Timestamp | null;
  reversal_note: string | null;
  /** The red invoice's PDF (红字发票) attached to the recorded 红冲 (migration 0046). */
  reversal_pdf_file_key: ColumnType<string | null, string | null | undefined, string | null>;
  deidentified_at: Timestamp | null;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

export interface InvoiceItemsTable {
  invoice_id: string;
  order_id: string;
  amount_fen: number;
}

export interface AddressesTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  phone: string;
  province: string;
  city: string;
  district: string;
  detail: string;
  is_default: Generated<boolean>;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

export interface OrderDeliveriesTable {
  order_id: string;
  address_id: string | null;
  recipient_name: string;
  phone: string;
  province: string;
  city: string;
  district: string;
  detail: string;
  carrier: string | null;
  tracking_no: string | null;
  shipped_at: Timestamp | null;
  deidentified_at: Timestamp | null;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

export interface Database {
  goods: GoodsTable;
  orders: OrdersTable;
  order_transitions: OrderTransitionsTable;
  payment_attempts: PaymentAttemptsTable;
  payments: PaymentsTable;
  refunds: RefundsTable;
  offline_proofs: OfflineProofsTable;
  invoices: InvoicesTable;
  invoice_items: InvoiceItemsTable;
  addresses: AddressesTable;
  order_deliveries: OrderDeliveriesTable;
}

export type GoodsRow = Selectable<GoodsTable>;
export type OrderRow = Selectable<OrdersTable>;
export type OrderTransitionRow = Selectable<OrderTransitionsTable>;
export type PaymentAttemptRow = Selectable<PaymentAttemptsTable>;
export type PaymentRow = Selectable<PaymentsTable>;
export type RefundRow = Selectable<RefundsTable>;
export type OfflineProofRow = Selectable<OfflineProofsTable>;
export type InvoiceRow = Selectable<InvoicesTable>;
export type AddressRow = Selectable<AddressesTable>;
export type OrderDeliveryRow = Selectable<OrderDeliveriesTable>;

// ---------------------------------------------------------------------------------------------
// Paper checks (migration 0005_check.sql), merged into `Database` like the tables above.

export const CHECK_STATUSES = ['pending', 'queued', 'running', 'done', 'failed'] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];
export type CheckStage = 'parsing' | 'comparing' | 'detecting' | 'reporting';
export type CheckFileFormat = 'txt' | 'docx' | 'doc' | 'pdf';
/** similarity: the comparison (查重); aigc: the AIGC detector (migration 0018). */
export type CheckKind = 'similarity' | 'aigc';

export interface ChecksTable {
  id: Generated<string>;
  check_no: string;
  user_id: string;
  order_id: string | null;
  goods_id: string;
  title: string;
  author: string;
  file_name: string;
  file_format: CheckFileFormat;
  file_bytes: number;
  file_sha256: string;
  kind: ColumnType<CheckKind, CheckKind | undefined, CheckKind>;
  file_key: string | null;
  text_key: string | null;
  chars: number;
  amount_fen: number;
  free: boolean;
  add_to_library: Generated<boolean>;
  library_doc_id: string | null;
  status: ColumnType<CheckStatus, CheckStatus | undefined, CheckStatus>;
  stage: CheckStage | null;
  progress: Generated<number>;
  failure_reason: string | null;
  job_id: string | null;
  runs: Generated<number>;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
  hidden_at: Timestamp | null;
}

export interface CheckReportsTable {
  check_id: string;
  report_no: string;
  verification_code: string;
  summary: ColumnType<unknown, string, string>;
  signature: string;
  ratio: number;
  total_chars: number;
  copied_chars: number;
  model_key: string | null;
  pdf_key: string | null;
  marked_pdf_key: string | null;
  html_key: string | null;
  zip_key: string | null;
  checked_at: Timestamp;
  created_at: GeneratedTimestamp;
}

export interface CheckLibraryDocumentsTable {
  id: string;
  title: string | null;
  authors: ColumnType<unknown, string | undefined, string>;
  year: number | null;
  source: string | null;
  discipline: string | null;
  /** Migration 0048: the record's abstract and keywords (a JSON array), when its source had them. */
  abstract: string | null;
  keywords: ColumnType<unknown, string | undefined, string>;
  collection: 'journal' | 'thesis' | 'web' | 'user';
  content_hash: string;
  chars: number;
  origin: 'import' | 'upload';
  added_at: GeneratedTimestamp;
}

/** AIGC detection ordered with a similarity check (migration 0042). */
export type CheckAigcAddonStatus = 'pending' | 'done' | 'failed';

export interface CheckAigcAddonsTable {
  check_id: string;
  goods_id: string;
  goods_name: string;
  amount_fen: number;
  free: Generated<boolean>;
  status: ColumnType<CheckAigcAddonStatus, CheckAigcAddonStatus | undefined, CheckAigcAddonStatus>;
  model_key: string | null;
  score: number | null;
  reliable: boolean | null;
  flagged_chars: number | null;
  failure_reason: string | null;
  refunded_fen: Generated<number>;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
  finished_at: Timestamp | null;
}

export interface Database {
  checks: ChecksTable;
  check_reports: CheckReportsTable;
  check_library_documents: CheckLibraryDocumentsTable;
  check_aigc_addons: CheckAigcAddonsTable;
}

export type CheckRow = Selectable<ChecksTable>;
export type CheckReportRow = Selectable<CheckReportsTable>;
export type CheckLibraryDocumentRow = Selectable<CheckLibraryDocumentsTable>;
export type CheckAigcAddonRow = Selectable<CheckAigcAddonsTable>;

/**
 * Revise in the report (migration 0073, issue 24): the working copy (version_no null) and the saved
 * versions of a finished check's paper; `edits` maps a paragraph index to its new text.
 */
export interface CheckRevisionsTable {
  id: Generated<string>;
  check_id: string;
  user_id: string;
  version_no: number | null;
  edits: ColumnType<unknown, string, string>;
  figures: ColumnType<unknown, string, string>;
  chars: number;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

/** Live re-checks per check and China-time day (migration 0073). */
export interface CheckRecheckCountsTable {
  check_id: string;
  user_id: string;
  day: ColumnType<string, string, string>;
  count: Generated<number>;
}

export interface Database {
  check_revisions: CheckRevisionsTable;
  check_recheck_counts: CheckRecheckCountsTable;
}

// ---------------------------------------------------------------------------------------------
// The similarity engine's PostgreSQL index (migration 0012_simcheck_index.sql). Read and written by
// the engine (@kyfw/simcheck/pg) through its own queries; typed here so that the schema is known
// in one place.

export interface SimcheckMetaTable {
  key: string;
  value: string;
}

export interface SimcheckDocumentsTable {
  doc_no: ColumnType<number, number, never>;
  id: string;
  title: string | null;
  text: string;
  chars: number;
  added_at: GeneratedTimestamp;
}

export interface SimcheckFingerprintsTable {
  hash: number;
  doc_no: number;
  pos: number;
}

export interface Database {
  simcheck_meta: SimcheckMetaTable;
  simcheck_documents: SimcheckDocumentsTable;
  simcheck_fingerprints: SimcheckFingerprintsTable;
}

// ---------------------------------------------------------------------------------------------
// LLM token accounting (migration 0020_llm_usage.sql, apps/server/src/providers/llm).

export interface LlmUsageTable {
  id: Generated<string>;
  task: string;
  order_no: string | null;
  user_id: string | null;
  provider: 'sandbox' | 'openai';
  model: string;
  prompt_tokens: number;
  completion_tokens: number;
  /** bigint: read as a decimal string by pg, written as a number. */
  cost_micro_yuan: ColumnType<string, number | string, number | string>;
  created_at: GeneratedTimestamp;
}

export interface Database {
  llm_usage: LlmUsageTable;
}

/** Running daily counters of LLM spending (migration 0063_llm_daily_spend.sql). */
export interface LlmDailySpendTable {
  /** China-time day, YYYY-MM-DD. */
  day: string;
  /** 'all', or 'free-user:<user id>' (an account's calls without an order). */
  scope: string;
  calls: number;
  /** bigint: read as a decimal string by pg. */
  tokens: ColumnType<string, number | string, number | string>;
  cost_micro_yuan: ColumnType<string, number | string, number | string>;
}

export interface Database {
  llm_daily_spend: LlmDailySpendTable;
}

// ---------------------------------------------------------------------------------------------
// AI thesis writing (migration 0021_writing.sql, apps/server/src/modules/writing).

export const WRITING_AREAS = ['dissertation', 'proposal', 'assignment', 'journalsReviewed'] as const;
export type WritingArea = (typeof WRITING_AREAS)[number];
export const WRITING_STATUSES = ['draft', 'ordered', 'writing', 'done', 'failed'] as const;
export type WritingStatus = (typeof WRITING_STATUSES)[number];

export interface WritingsTable {
  id: Generated<string>;
  user_id: string;
  area: WritingArea;
  topic: string;
  title: string | null;
  discipline: ColumnType<string, string | undefined, string>;
  degree: ColumnType<string, string | undefined, string>;
  language: ColumnType<'zh' | 'en', 'zh' | 'en' | undefined, 'zh' | 'en'>;
  target_words: number;
  requirements: ColumnType<string, string | undefined, string>;
  template_id: ColumnType<string, string | undefined, string>;
  outline: ColumnType<unknown, string | null | undefined, string | null>;
  abstract: ColumnType<unknown, string | null | undefined, string | null>;
  sources: ColumnType<unknown, string | undefined, string>;
  sections: ColumnType<unknown, string | undefined, string>;
  order_id: string | null;
  status: ColumnType<WritingStatus, WritingStatus | undefined, WritingStatus>;
  progress: ColumnType<number, number | undefined, number>;
  failure_reason: string | null;
  free_outline: ColumnType<boolean, boolean | undefined, boolean>;
  outlines_generated: ColumnType<number, number | undefined, number>;
  /** Migration 0037: section revisions used, the unlimited-revisions add-on, the revision under way. */
  revisions_used: ColumnType<number, number | undefined, number>;
  revisions_order_id: string | null;
  unlimited_revisions: ColumnType<boolean, boolean | undefined, boolean>;
  revision: ColumnType<unknown, string | null | undefined, string | null>;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
  finished_at: Timestamp | null;
  hidden_at: Timestamp | null;
}

export interface Database {
  writings: WritingsTable;
}

// ---------------------------------------------------------------------------------------------
// The operator console (migration 0025_staff_console.sql, apps/server/src/modules/console).

/**
 * The roles are the contracts' STAFF_ROLE_VALUES (staff-permissions.ts); the column's CHECK is held
 * equal to them by packages/db/test/staff-roles.test.ts.
 */
export type StaffRole = StaffRoleName;

export interface StaffAccountsTable {
  id: string;
  username: string;
  role: StaffRole;
  password_hash: string;
  totp_secret: string;
  failed_logins: ColumnType<number, number | undefined, number>;
  locked_until: Timestamp | null;
  /** bigint: read as a decimal string by pg. */
  last_totp_step: ColumnType<string | null, number | null | undefined, number | null>;
  disabled: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: GeneratedTimestamp;
  /** Who created it (a staff username, or 'cli'); migration 0030. */
  created_by: ColumnType<string | null, string | null | undefined, string | null>;
  last_login_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface StaffSessionsTable {
  token_hash: string;
  staff_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  ip: string | null;
}

/** Append-only: inserted and selected, never updated or deleted (a trigger refuses both). */
export interface AuditLogTable {
  id: Generated<string>;
  at: GeneratedTimestamp;
  staff_id: string | null;
  username: string | null;
  role: string | null;
  action: string;
  target: string | null;
  /** invalid: an input mistake (migration 0069); refused: a permission refusal. */
  outcome: 'ok' | 'refused' | 'invalid' | 'failed';
  before: ColumnType<unknown, string | null | undefined, never>;
  after: ColumnType<unknown, string | null | undefined, never>;
  detail: ColumnType<unknown, string | null | undefined, never>;
  ip: string | null;
  user_agent: string | null;
}

/** One-time recovery codes: an HMAC of each, marked when used (migration 0030). */
export interface StaffRecoveryCodesTable {
  staff_id: string;
  code_digest: string;
  used_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** Keys sealed under STAFF_SECRET_KEY, moved here by its rotation (migration 0046). */
export interface StaffSealedKeysTable {
  name: 'recovery-mac';
  sealed: string;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface Database {
  staff_accounts: StaffAccountsTable;
  staff_sealed_keys: StaffSealedKeysTable;
  staff_recovery_codes: StaffRecoveryCodesTable;
  staff_sessions: StaffSessionsTable;
  audit_log: AuditLogTable;
}

// ---------------------------------------------------------------------------------------------
// 降重 and 降AIGC (migration 0023_reductions.sql).

export const REDUCTION_STATUSES = ['ordered', 'rewriting', 'done', 'failed'] as const;
export type ReductionStatus = (typeof REDUCTION_STATUSES)[number];
export type ReductionKind = 'reduction' | 'aigc_reduction';
export type ReductionSource = 'text' | 'file' | 'report';

export interface ReductionsTable {
  id: Generated<string>;
  user_id: string;
  kind: ReductionKind;
  source: ReductionSource;
  title: string;
  check_id: string | null;
  file_name: string | null;
  file_key: string | null;
  /** Migration 0057: bytes of the stored upload (0: none, or stored before 0057). */
  file_bytes: ColumnType<number, number | undefined, number>;
  original_text: string;
  chars: number;
  paragraphs: ColumnType<unknown, string | undefined, string>;
  results: ColumnType<unknown, string | undefined, string>;
  rate_before: number | null;
  rate_after: number | null;
  aigc_before: number | null;
  aigc_after: number | null;
  sandbox: ColumnType<boolean, boolean | undefined, boolean>;
  order_id: string | null;
  status: ColumnType<ReductionStatus, ReductionStatus | undefined, ReductionStatus>;
  progress: ColumnType<number, number | undefined, number>;
  failure_reason: string | null;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
  finished_at: Timestamp | null;
  hidden_at: Timestamp | null;
  /** Given back because target paragraphs were not rewritten (migration 0053); null: not decided yet. */
  refund_fen: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface Database {
  reductions: ReductionsTable;
}

// ---------------------------------------------------------------------------------------------
// Industry news (migration 0027_articles.sql).

export const ARTICLE_CATEGORIES = ['guide', 'norms', 'policy'] as const;
export type ArticleCategory = (typeof ARTICLE_CATEGORIES)[number];

export interface ArticlesTable {
  id: ColumnType<string, never, never>;
  slug: string;
  category: ArticleCategory;
  title: string;
  summary: string;
  body_html: string;
  author: string;
  source: string | null;
  /** jsonb string[]: written as JSON text. */
  tags: ColumnType<unknown, string | undefined, string>;
  status: ColumnType<'published' | 'draft', 'published' | 'draft' | undefined, 'published' | 'draft'>;
  published_at: Timestamp | null;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
  /** news_images.id (migration 0032); null: the page shows a placeholder. */
  cover_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** An uploaded news image (migration 0032_news_images.sql). */
export interface NewsImagesTable {
  id: string;
  width: number;
  height: number;
  /** jsonb number[]: the stored WebP widths, ascending; written as JSON text. */
  widths: ColumnType<unknown, string, never>;
  size_bytes: number;
  created_at: GeneratedTimestamp;
}

/** The landing page's case/showcase images (migration 0033_case_photos.sql). */
export interface CasePhotosTable {
  id: ColumnType<string, never, never>;
  image_id: string;
  title: string;
  caption: ColumnType<string, string | undefined, string>;
  link_path: string | null;
  sort_order: ColumnType<number, number | undefined, number>;
  visible: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

export interface Database {
  articles: ArticlesTable;
  news_images: NewsImagesTable;
  case_photos: CasePhotosTable;
}

// ---------------------------------------------------------------------------------------------
// Commissioned services (migration 0034_commissions.sql).

export type CommissionServiceType = 'search_report' | 'tech_search' | 'doc_delivery' | 'tech_evaluation';
export type CommissionStatus =
  | 'quoting'
  | 'pending_payment'
  | 'processing'
  | 'done'
  | 'cancelled'
  /** An operator refunded the whole payment: the commission ended (migration 0061). */
  | 'refunded';

export interface CommissionsTable {
  id: string;
  commission_no: string;
  user_id: string;
  service: CommissionServiceType;
  title: string;
  /** jsonb: the validated form, written as JSON text. */
  form: ColumnType<Record<string, unknown>, string, string>;
  goods_id: string;
  quantity: number | null;
  status: CommissionStatus;
  order_id: string | null;
  quote_note: string | null;
  /** YYYY-MM-DD. */
  deadline: string | null;
  submitted_at: Timestamp;
  quoted_at: Timestamp | null;
  paid_at: Timestamp | null;
  done_at: Timestamp | null;
  cancelled_at: Timestamp | null;
  refunded_at: Timestamp | null;
  notified_at: Timestamp | null;
  updated_at: Timestamp;
  /** YYYY-MM-DD (China time): paid day + the goods' turnaround_days (migration 0047). */
  due_date: ColumnType<string | null, string | null | undefined, string | null>;
}

/** An e-mail notice of a commission (migration 0047): claimed before sending, sent once. */
export interface CommissionNoticesTable {
  id: string;
  commission_id: string;
  kind: 'quoted' | 'done' | 'refunded';
  order_id: string;
  email: string;
  status: 'pending' | 'sending' | 'sent' | 'failed';
  attempts: Generated<number>;
  last_error: string | null;
  message_id: string | null;
  created_at: Timestamp;
  sent_at: Timestamp | null;
  /** While `sending`: the claim's lease (migration 0060); another worker may claim it after. */
  claimed_until: Timestamp | null;
}

export interface CommissionFilesTable {
  id: string;
  user_id: string;
  commission_id: string | null;
  kind: 'attachment' | 'report';
  file_name: string;
  storage_key: string;
  bytes: number;
  staff_id: string | null;
  created_at: Timestamp;
}

export interface Database {
  commissions: CommissionsTable;
  commission_files: CommissionFilesTable;
  commission_notices: CommissionNoticesTable;
}

// --- the console's library imports (migration 0040) -----------------------------------------------

export type LibraryImportStatus = 'queued' | 'running' | 'succeeded' | 'failed';

export interface LibraryImportsTable {
  id: string;
  file_name: string;
  file_key: string;
  file_bytes: ColumnType<number, number, number>;
  collection: 'journal' | 'thesis' | 'web';
  status: ColumnType<LibraryImportStatus, LibraryImportStatus | undefined, LibraryImportStatus>;
  progress: ColumnType<number, number | undefined, number>;
  progress_text: string | null;
  summary: Json | null;
  error: string | null;
  job_id: string | null;
  staff_id: string | null;
  username: string;
  created_at: Timestamp;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
}

export interface Database {
  library_imports: LibraryImportsTable;
}

export type LibraryImportRow = Selectable<LibraryImportsTable>;

// --- the payment sandboxes' books (migration 0059) ------------------------------------------------

export interface PaymentSandboxOrdersTable {
  channel: 'wx' | 'ali';
  order_no: string;
  /** The sandbox's record of the order (providers/payment/sandbox-store.ts SandboxOrder). */
  data: Json;
  created_at: Timestamp;
  updated_at: Timestamp;
}

// --- the payment sandboxes' fault switches (migration 0065) ---------------------------------------

export interface PaymentSandboxFaultsTable {
  channel: 'wx' | 'ali';
  fail_next: Generated<number>;
  drop_next: Generated<number>;
  duplicate_next: Generated<number>;
  duplicate_concurrently: Generated<boolean>;
  delay_ms: Generated<number>;
  fail_api_next: Generated<number>;
  refuse_refund_next: Generated<number>;
  updated_at: GeneratedTimestamp;
}

export interface Database {
  payment_sandbox_orders: PaymentSandboxOrdersTable;
  payment_sandbox_faults: PaymentSandboxFaultsTable;
}

// --- how invoices are issued (migration 0062) -------------------------------------------------------

export type InvoiceIssueMode = 'immediate' | 'review' | 'company_review';

export interface InvoiceSettingsTable {
  id: Generated<number>;
  issue_mode: InvoiceIssueMode;
  updated_by: string;
  updated_at: Timestamp;
}

export interface Database {
  invoice_settings: InvoiceSettingsTable;
}

// --- picture checks and failures per address of the SMS codes (migration 0060) -------------------

export interface SmsCaptchasTable {
  id: string;
  client_ip: string;
  /** sha256 of `${id}:${answer}`. */
  answer_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface SmsAddressFailuresTable {
  id: Generated<number>;
  client_ip: string;
  kind: 'wrong_code' | 'wrong_captcha';
  created_at: Timestamp;
}

export interface Database {
  sms_captchas: SmsCaptchasTable;
  sms_address_failures: SmsAddressFailuresTable;
}
