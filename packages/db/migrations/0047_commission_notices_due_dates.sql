-- Issue 16, commissioned services: e-mail notices and turnaround promises made true.

-- 1. E-mail notices (docs/api/commission.md, decision 0017): one row per notice, written in the
-- transaction that makes it due (a quote: its order; done: the commission), sent by the
-- commission.mail job. `status`: pending -> sending (claimed before the mail server is spoken to)
-- -> sent; a refused or unreachable server puts it back to pending (the job is retried), the last
-- attempt leaves it failed. A notice found `sending` (the process died mid-send) is not sent again:
-- never twice.
create table commission_notices (
  id uuid primary key,
  commission_id uuid not null references commissions (id),
  kind text not null check (kind in ('quoted', 'done')),
  -- The order the notice is about (a new quote of an expired one is a new notice).
  order_id uuid not null references orders (id),
  email text not null check (char_length(email) between 3 and 100),
  status text not null check (status in ('pending', 'sending', 'sent', 'failed')),
  attempts integer not null default 0,
  last_error text check (char_length(last_error) <= 200),
  message_id text,
  created_at timestamptz not null,
  sent_at timestamptz,
  unique (commission_id, kind, order_id),
  check ((status = 'sent') = (sent_at is not null))
);

-- 2. Turnaround: the goods' days from payment to delivery, in calendar days (a holiday calendar is
-- not kept, so a promise in working days could not be recorded truthfully). The descriptions lose
-- their numbers: the pages state the promise from this column, and each paid commission records its
-- due date from it.
alter table goods add column turnaround_days integer check (turnaround_days between 1 and 365);
update goods set turnaround_days = 7, description = '按论文篇数 × 检索数据库个数计费，每篇每库 15 元，出具盖章检索报告。'
  where id = 'search_report_standard';
update goods set turnaround_days = 3, description = '按论文篇数 × 检索数据库个数计费，每篇每库 25 元，加急出具盖章检索报告。'
  where id = 'search_report_urgent';
update goods set turnaround_days = 14, description = '国内查新，每项 800 元，出具查新报告。' where id = 'tech_search_domestic';
update goods set turnaround_days = 7, description = '国内查新，每项 1200 元，加急出具查新报告。'
  where id = 'tech_search_domestic_urgent';
update goods set turnaround_days = 21, description = '国内外查新，每项 1500 元，出具查新报告。' where id = 'tech_search_global';
update goods set turnaround_days = 10, description = '国内外查新，每项 2200 元，加急出具查新报告。'
  where id = 'tech_search_global_urgent';
update goods set turnaround_days = 5, description = '按申请的文献篇数计费，每篇 5 元，以文件交付；仅供个人学习研究。'
  where id = 'doc_delivery_standard';

-- YYYY-MM-DD (China time): the payment's day + the goods' turnaround_days; null: no promise (a
-- quoted 科技成果评价, or goods without a turnaround).
alter table commissions add column due_date text check (due_date ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$');
create index commissions_due_idx on commissions (status, due_date);
