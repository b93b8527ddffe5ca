-- Issue 23: how invoices are issued is a site setting of the console (docs/api/orders.md, decision
-- 0031) instead of INVOICE_AUTO_ISSUE: 'immediate' (the PDF is issued the moment the user asks),
-- 'review' (every request waits for finance to check 抬头/税号 in 发票 › 待开具) or 'company_review'
-- (the default: 企业 titles wait for review, personal ones are issued at once). One row; missing
-- means the default.
create table invoice_settings (
  id smallint primary key default 1 check (id = 1),
  issue_mode text not null check (issue_mode in ('immediate', 'review', 'company_review')),
  -- The staff account that chose it (audit log has the rest).
  updated_by text not null check (char_length(updated_by) between 1 and 64),
  updated_at timestamptz not null
);
