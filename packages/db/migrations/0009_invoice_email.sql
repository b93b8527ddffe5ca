-- An issued invoice is e-mailed to the address on it (the orders.invoice-mail job, queued in the
-- transaction that marks it issued); `emailed_at` records when the mail server took it. Invoices
-- issued before this migration were never sent and stay unsent (null).
alter table invoices add column emailed_at timestamptz;
