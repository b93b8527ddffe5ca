-- Issue 23: a refund ends the commission (docs/api/commission.md, decision 0031).
-- An operator's refund of everything left of a commission's payment moves it to 'refunded' in the
-- refund's transaction: it leaves the 委托办理 queue, the client sees 已退款, and a report upload
-- or 标记完成 on it is refused. The client is told by e-mail (kind 'refunded') when the form gave
-- an address; the SMS notice of every refund is the orders module's.
alter table commissions drop constraint commissions_status_check;
alter table commissions add constraint commissions_status_check
  check (status in ('quoting', 'pending_payment', 'processing', 'done', 'cancelled', 'refunded'));
alter table commissions add column refunded_at timestamptz;
alter table commissions add constraint commissions_refunded_at_check
  check (status <> 'refunded' or refunded_at is not null);

alter table commission_notices drop constraint commission_notices_kind_check;
alter table commission_notices add constraint commission_notices_kind_check
  check (kind in ('quoted', 'done', 'refunded'));
