-- Orders and payment (issue 5): the goods catalogue, one order model for every paid service with
-- its transition log, payment attempts at the platforms (WeChat Pay / Alipay QR codes), payments,
-- refunds, offline-payment proofs, invoices, receiving addresses and courier deliveries.
-- Amounts are integer fen everywhere. All times are written by the server's clock (tests inject
-- one); the defaults only guard against a forgotten column. Money rows are never deleted: a user's
-- "delete" hides an order, and account deletion de-identifies (see modules/orders/account-data.ts).

-- The catalogue services price from. Amount = ceil(quantity / unit_size) * unit_price_fen, never a
-- number from the browser. Operators may change prices later; orders keep a snapshot.
create table goods (
  id text primary key check (id ~ '^[a-z0-9_]{2,40}$'),
  service_type text not null check (
    service_type in ('check', 'reduction', 'aigc_reduction', 'ai_writing', 'search_report', 'tech_search')
  ),
  name text not null check (char_length(name) between 1 and 60),
  description text not null default '' check (char_length(description) <= 500),
  unit_price_fen integer not null check (unit_price_fen > 0),
  -- The price is per unit_size of quantity, e.g. 1000 characters (unit '千字').
  unit_size integer not null default 1 check (unit_size > 0),
  unit text not null check (char_length(unit) between 1 and 20),
  min_quantity integer not null default 1 check (min_quantity >= 1),
  max_quantity integer not null check (max_quantity >= min_quantity),
  -- Free use, e.g. {"entitlement":"free_check","maxQuantity":10000,"text":"…"}: the service consumes
  -- the account's entitlement instead of creating an order. Null: no free use.
  free_rule jsonb,
  active boolean not null default true,
  sort_order integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create index goods_service_type_idx on goods (service_type, sort_order) where active;

insert into goods (id, service_type, name, description, unit_price_fen, unit_size, unit, min_quantity, max_quantity, free_rule, sort_order) values
  ('check_undergrad', 'check', '本科毕业论文查重', '适用于专科、本科毕业论文，按字符数计费，每千字 2 元。', 200, 1000, '千字', 1, 300000,
   '{"entitlement":"free_check","maxQuantity":10000,"text":"绑定手机号或微信后可免费查重一次（1万字以内）"}', 10),
  ('check_master', 'check', '硕博学位论文查重', '适用于硕士、博士学位论文，比对库含学位论文库，每千字 3 元。', 300, 1000, '千字', 1, 500000, null, 20),
  ('check_journal', 'check', '期刊职称论文查重', '适用于期刊投稿、职称评审论文，每千字 2.5 元。', 250, 1000, '千字', 1, 200000, null, 30),
  ('reduction_standard', 'reduction', '智能降重', '改写重复片段、降低文字复制比，保持原意与学术表达，每千字 5 元。', 500, 1000, '千字', 1, 300000, null, 10),
  ('aigc_reduction_standard', 'aigc_reduction', '降AIGC率', '改写 AI 生成痕迹明显的段落，降低 AIGC 检测疑似度，每千字 6 元。', 600, 1000, '千字', 1, 300000, null, 10),
  ('ai_writing_dissertation', 'ai_writing', 'AI写作·毕业论文', '按大纲生成毕业论文全文（含摘要、参考文献、格式模板），每篇 99 元。', 9900, 1, '篇', 1, 1,
   '{"entitlement":"ai_writing_trial","text":"绑定手机号或微信后可免费试用一次大纲生成"}', 10),
  ('ai_writing_proposal', 'ai_writing', 'AI写作·开题报告', '生成开题报告全文，每篇 49 元。', 4900, 1, '篇', 1, 1, null, 20),
  ('ai_writing_journal', 'ai_writing', 'AI写作·期刊论文', '生成期刊论文全文，每篇 69 元。', 6900, 1, '篇', 1, 1, null, 30),
  ('ai_writing_assignment', 'ai_writing', 'AI写作·课程作业', '生成课程论文或作业，每篇 29 元。', 2900, 1, '篇', 1, 1, null, 40),
  ('ai_writing_revisions', 'ai_writing', 'AI写作·无限次修改', '已购论文不限次数修改大纲与正文。', 1990, 1, '次', 1, 1, null, 50);

-- One order per purchase of any paid service.
create table orders (
  id uuid primary key default gen_random_uuid(),
  -- 'KY' + yyyyMMddHHmmss (China time) + 6 random digits: readable and valid at both platforms.
  order_no text not null unique check (order_no ~ '^KY[0-9]{20}$'),
  -- Account rows are kept (only de-identified) when an account is deleted, so no cascade.
  user_id uuid not null references users (id),
  service_type text not null check (
    service_type in ('check', 'reduction', 'aigc_reduction', 'ai_writing', 'search_report', 'tech_search')
  ),
  goods_id text not null references goods (id),
  -- Snapshot of the catalogue at ordering time.
  goods_name text not null check (char_length(goods_name) between 1 and 60),
  unit_price_fen integer not null check (unit_price_fen > 0),
  unit_size integer not null check (unit_size > 0),
  unit text not null check (char_length(unit) between 1 and 20),
  quantity integer not null check (quantity > 0),
  amount_fen integer not null check (amount_fen > 0),
  status text not null default 'pending_payment' check (
    status in ('pending_payment', 'paid', 'processing', 'done', 'cancelled', 'expired', 'refunded')
  ),
  pay_channel text check (pay_channel in ('wx', 'ali', 'offline')),
  paid_at timestamptz,
  expire_at timestamptz not null,
  -- The service's own record (e.g. a check id); opaque here.
  service_ref text check (char_length(service_ref) <= 100),
  meta jsonb not null default '{}',
  -- Sum of succeeded refunds of the accepted payment.
  refunded_fen integer not null default 0 check (refunded_fen >= 0 and refunded_fen <= amount_fen),
  -- When the onPaid hooks of the service ran (null: not yet; the reconciliation job retries).
  paid_hooks_at timestamptz,
  -- The user's delete hides the order; money records are never destroyed.
  deleted_by_user boolean not null default false,
  deleted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- Paid exactly when the status says so (an expired order paid in time becomes paid, see docs).
  check ((paid_at is null) = (status in ('pending_payment', 'cancelled', 'expired'))),
  check (paid_at is null or pay_channel is not null),
  check (status <> 'refunded' or refunded_fen = amount_fen),
  check (deleted_by_user = (deleted_at is not null))
);

create index orders_user_idx on orders (user_id, created_at desc) where not deleted_by_user;
create index orders_pending_expiry_idx on orders (expire_at) where status = 'pending_payment';
create index orders_hooks_pending_idx on orders (paid_at) where paid_hooks_at is null and paid_at is not null;

-- Every status change: who, when, why. The first row (from_status null) is the creation.
create table order_transitions (
  id bigint generated always as identity primary key,
  order_id uuid not null references orders (id),
  from_status text,
  to_status text not null,
  actor text not null check (actor in ('user', 'system', 'provider', 'operator')),
  reason text not null check (char_length(reason) <= 200),
  created_at timestamptz not null default now()
);

create index order_transitions_order_idx on order_transitions (order_id, id);

-- A QR code at one platform for one order. The platform order number (out_trade_no) is the order
-- number; only when a user comes back to a channel whose attempt was closed (switching channels
-- closes the other) does a new attempt get '<order_no>-<n>', since a closed number cannot be reused.
create table payment_attempts (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references orders (id),
  channel text not null check (channel in ('wx', 'ali')),
  out_trade_no text not null check (out_trade_no ~ '^KY[0-9]{20}(-[0-9]{1,3})?$'),
  amount_fen integer not null check (amount_fen > 0),
  -- Null until the platform answered the create call (a lost answer is retried with the same input).
  code_url text check (char_length(code_url) <= 1000),
  status text not null default 'open' check (status in ('open', 'closed', 'paid')),
  expire_at timestamptz not null,
  last_queried_at timestamptz,
  closed_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (channel, out_trade_no),
  check ((status = 'closed') = (closed_at is not null))
);

-- At most one open QR code per order and channel.
create unique index payment_attempts_one_open_idx on payment_attempts (order_id, channel) where status = 'open';
create index payment_attempts_open_idx on payment_attempts (last_queried_at nulls first) where status = 'open';

-- Money received. 'accepted' is the one payment that paid the order; 'late' (order already expired
-- or cancelled) and 'duplicate' (order already paid by another transaction) are refunded
-- automatically; 'amount_mismatch' is flagged for an operator and never pays the order.
create table payments (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references orders (id),
  attempt_id uuid references payment_attempts (id),
  channel text not null check (channel in ('wx', 'ali', 'offline')),
  -- WeChat transaction_id / Alipay trade_no / 'OFFLINE-<proof id>'.
  transaction_id text not null check (char_length(transaction_id) between 1 and 64),
  amount_fen integer not null check (amount_fen > 0),
  paid_at timestamptz not null,
  status text not null check (status in ('accepted', 'late', 'duplicate', 'amount_mismatch')),
  source text not null check (source in ('notification', 'reconciliation', 'operator')),
  flagged boolean not null default false,
  flag_reason text check (char_length(flag_reason) <= 200),
  refunded_fen integer not null default 0 check (refunded_fen >= 0 and refunded_fen <= amount_fen),
  -- The verified notification / query answer (payer ids are cleared when the account is deleted).
  raw jsonb not null default '{}',
  created_at timestamptz not null default now(),
  unique (channel, transaction_id)
);

create unique index payments_one_accepted_idx on payments (order_id) where status = 'accepted';
create index payments_order_idx on payments (order_id);
create index payments_flagged_idx on payments (created_at) where flagged;

create table refunds (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references orders (id),
  payment_id uuid not null references payments (id),
  -- Our out_refund_no / out_request_no: the same number is the same refund at the platform.
  refund_no text not null unique check (refund_no ~ '^RF[0-9A-Za-z]{10,30}$'),
  amount_fen integer not null check (amount_fen > 0),
  reason text not null check (char_length(reason) between 1 and 80),
  status text not null default 'pending' check (status in ('pending', 'processing', 'succeeded', 'failed')),
  actor text not null check (actor in ('system', 'operator')),
  provider_refund_id text check (char_length(provider_refund_id) <= 128),
  last_error text check (char_length(last_error) <= 500),
  attempts integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  finished_at timestamptz,
  check ((status in ('succeeded', 'failed')) = (finished_at is not null))
);

create index refunds_open_idx on refunds (created_at) where status in ('pending', 'processing');
create index refunds_payment_idx on refunds (payment_id);

-- Bank-transfer proofs uploaded by users; an operator confirms (pays the order) or rejects.
create table offline_proofs (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references orders (id),
  user_id uuid not null references users (id),
  -- Relative to DATA_DIR/files; null once deleted (account deletion).
  file_key text check (char_length(file_key) <= 200),
  mime_type text not null check (mime_type in ('image/png', 'image/jpeg', 'image/webp', 'application/pdf')),
  size_bytes integer not null check (size_bytes > 0),
  status text not null default 'pending' check (status in ('pending', 'confirmed', 'rejected')),
  review_note text check (char_length(review_note) <= 200),
  reviewed_at timestamptz,
  created_at timestamptz not null default now(),
  check ((status = 'pending') = (reviewed_at is null))
);

-- One proof under review per order.
create unique index offline_proofs_one_pending_idx on offline_proofs (order_id) where status = 'pending';
create index offline_proofs_status_idx on offline_proofs (status, created_at);

create table invoices (
  id uuid primary key default gen_random_uuid(),
  invoice_no text not null unique check (invoice_no ~ '^FP[0-9]{16}$'),
  user_id uuid not null references users (id),
  title_type text not null check (title_type in ('personal', 'company')),
  title text not null check (char_length(title) between 1 and 100),
  -- 18-character unified social credit code (GB 32100-2015); required for a company title.
  taxpayer_id text check (taxpayer_id ~ '^[0-9A-HJ-NPQRTUWXY]{18}$'),
  email text check (char_length(email) <= 100),
  amount_fen integer not null check (amount_fen > 0),
  status text not null default 'requested' check (status in ('requested', 'issued')),
  -- Relative to DATA_DIR/files.
  pdf_file_key text check (char_length(pdf_file_key) <= 200),
  issued_at timestamptz,
  deidentified_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (title_type = 'personal' or taxpayer_id is not null or deidentified_at is not null),
  check (email is not null or deidentified_at is not null),
  check ((status = 'issued') = (issued_at is not null))
);

create index invoices_user_idx on invoices (user_id, created_at desc);

-- Each order is invoiced at most once.
create table invoice_items (
  invoice_id uuid not null references invoices (id),
  order_id uuid not null unique references orders (id),
  amount_fen integer not null check (amount_fen > 0),
  primary key (invoice_id, order_id)
);

-- Receiving addresses (personal data: deleted with the account).
create table addresses (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  name text not null check (char_length(name) between 1 and 20),
  phone text not null check (phone ~ '^1[3-9][0-9]{9}$'),
  province text not null check (char_length(province) between 1 and 30),
  city text not null check (char_length(city) between 1 and 30),
  district text not null check (char_length(district) between 1 and 30),
  detail text not null check (char_length(detail) between 2 and 120),
  is_default boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create unique index addresses_one_default_idx on addresses (user_id) where is_default;
create index addresses_user_idx on addresses (user_id, created_at desc);

-- Courier delivery of a printed report: the address is copied, so editing or deleting the address
-- later does not move a parcel already on its way.
create table order_deliveries (
  order_id uuid primary key references orders (id),
  address_id uuid references addresses (id) on delete set null,
  recipient_name text not null check (char_length(recipient_name) <= 20),
  phone text not null check (char_length(phone) <= 20),
  province text not null check (char_length(province) <= 30),
  city text not null check (char_length(city) <= 30),
  district text not null check (char_length(district) <= 30),
  detail text not null check (char_length(detail) <= 120),
  carrier text check (char_length(carrier) between 1 and 30),
  tracking_no text check (tracking_no ~ '^[0-9A-Za-z-]{6,40}$'),
  shipped_at timestamptz,
  deidentified_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((shipped_at is null) = (tracking_no is null)),
  check ((tracking_no is null) = (carrier is null))
);
