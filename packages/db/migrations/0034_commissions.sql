-- Commissioned services (issue 16): 收录引用检索报告 (search_report), 科技查新 (tech_search),
-- 文献下载服务 (doc_delivery) and 科技成果评价 (tech_evaluation). A commission is the client's form
-- and files; it is paid through one order of the shared orders module, created at once when the
-- price comes from the goods, or when an operator has quoted (科技成果评价). Operators deliver
-- report files and mark it done.

-- Two more services an order can be for (the list is packages/contracts' SERVICE_TYPES).
alter table goods drop constraint goods_service_type_check;
alter table goods add constraint goods_service_type_check check (
  service_type in ('check', 'reduction', 'aigc_reduction', 'ai_writing', 'search_report', 'tech_search',
                   'doc_delivery', 'tech_evaluation')
);
alter table orders drop constraint orders_service_type_check;
alter table orders add constraint orders_service_type_check check (
  service_type in ('check', 'reduction', 'aigc_reduction', 'ai_writing', 'search_report', 'tech_search',
                   'doc_delivery', 'tech_evaluation')
);

-- Prices (docs/api/commission.md): 检索报告 per paper × database, 科技查新 a fixed price per
-- project by scope and urgency, 文献下载 per paper, 科技成果评价 quoted by an operator in whole
-- yuan (the order's quantity is the quote in 元 at ¥1 per 元).
insert into goods (id, service_type, name, description, unit_price_fen, unit_size, unit, min_quantity, max_quantity, sort_order) values
  ('search_report_standard', 'search_report', '收录引用检索报告（常规）', '按论文篇数 × 检索数据库个数计费，每篇每库 15 元，5 个工作日内出具盖章报告。', 1500, 1, '篇·库', 1, 2000, 10),
  ('search_report_urgent', 'search_report', '收录引用检索报告（加急）', '按论文篇数 × 检索数据库个数计费，每篇每库 25 元，2 个工作日内出具盖章报告。', 2500, 1, '篇·库', 1, 2000, 20),
  ('tech_search_domestic', 'tech_search', '科技查新（国内，常规）', '国内查新，每项 800 元，10 个工作日内出具查新报告。', 80000, 1, '项', 1, 1, 10),
  ('tech_search_domestic_urgent', 'tech_search', '科技查新（国内，加急）', '国内查新，每项 1200 元，5 个工作日内出具查新报告。', 120000, 1, '项', 1, 1, 20),
  ('tech_search_global', 'tech_search', '科技查新（国内外，常规）', '国内外查新，每项 1500 元，15 个工作日内出具查新报告。', 150000, 1, '项', 1, 1, 30),
  ('tech_search_global_urgent', 'tech_search', '科技查新（国内外，加急）', '国内外查新，每项 2200 元，7 个工作日内出具查新报告。', 220000, 1, '项', 1, 1, 40),
  ('doc_delivery_standard', 'doc_delivery', '文献下载服务', '按申请的文献篇数计费，每篇 5 元，3 个工作日内以文件交付；仅供个人学习研究。', 500, 1, '篇', 1, 20, 10),
  ('tech_evaluation_quote', 'tech_evaluation', '科技成果评价', '根据成果材料与评价形式由工作人员报价，确认报价并支付后组织评价。', 100, 1, '元', 1, 200000, 10);

create table commissions (
  id uuid primary key,
  -- 'WT' + yyyyMMddHHmmss (China time) + 6 random digits.
  commission_no text not null unique check (commission_no ~ '^WT[0-9]{20}$'),
  user_id uuid not null references users (id),
  service text not null check (service in ('search_report', 'tech_search', 'doc_delivery', 'tech_evaluation')),
  title text not null check (char_length(title) between 1 and 300),
  -- The validated form (contracts' commissionFormSchema output).
  form jsonb not null,
  goods_id text not null references goods (id),
  quantity integer check (quantity > 0),
  status text not null check (status in ('quoting', 'pending_payment', 'processing', 'done', 'cancelled')),
  order_id uuid unique references orders (id),
  quote_note text check (char_length(quote_note) <= 200),
  -- YYYY-MM-DD as the client chose it (kept as text: both drivers read it back alike).
  deadline text check (deadline ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
  submitted_at timestamptz not null,
  quoted_at timestamptz,
  paid_at timestamptz,
  done_at timestamptz,
  cancelled_at timestamptz,
  -- When the done notice (SMS) went out; null: not yet (or no phone).
  notified_at timestamptz,
  updated_at timestamptz not null,
  check ((status = 'quoting') = (order_id is null and cancelled_at is null) or status = 'cancelled'),
  check (status <> 'done' or done_at is not null)
);
create index commissions_user_idx on commissions (user_id, submitted_at desc);
create index commissions_status_idx on commissions (status, submitted_at);

-- The client's attachments (uploaded before the form is sent, attached by it) and the delivered
-- reports (uploaded by operators). The bytes are in the file storage under storage_key.
create table commission_files (
  id uuid primary key,
  user_id uuid not null references users (id),
  commission_id uuid references commissions (id),
  kind text not null check (kind in ('attachment', 'report')),
  file_name text not null check (char_length(file_name) between 1 and 200),
  storage_key text not null unique,
  bytes integer not null check (bytes > 0),
  -- The operator who delivered a report.
  staff_id text references staff_accounts (id),
  created_at timestamptz not null,
  check (kind = 'attachment' or (commission_id is not null and staff_id is not null))
);
create index commission_files_commission_idx on commission_files (commission_id, created_at);
create index commission_files_user_idx on commission_files (user_id) where commission_id is null;
