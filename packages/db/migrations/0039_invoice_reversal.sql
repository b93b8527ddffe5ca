-- Red-letter reversal (红冲) of an issued invoice whose order was refunded afterwards: the finance
-- operator issues the red invoice in the tax system and records it here (when, and its number or a
-- note). The invoice stays 'issued'; the user sees it as 已红冲.
alter table invoices add column reversed_at timestamptz;
alter table invoices add column reversal_note text check (char_length(reversal_note) between 1 and 200);
alter table invoices add constraint invoices_reversal_recorded
  check ((reversed_at is null) = (reversal_note is null) and (reversed_at is null or status = 'issued'));
