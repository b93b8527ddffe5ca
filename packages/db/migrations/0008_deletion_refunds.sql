-- Orders whose service could not be delivered are refunded automatically (0006_money_fixes): a
-- check that failed for good, a payment accepted for a deleted check, a check stopped because its
-- account was deleted. When the payment platform refuses that refund for good (or cannot make it:
-- an offline transfer), the refund is failed and its payment flagged for an operator; the order
-- records when (`auto_refund_failed_at`) and says so — '<text>，退款未能自动完成，客服将与您联系处理'
-- instead of '<text>，正在自动退款', and '<text>，已退款' once an operator has refunded it.
alter table orders add column auto_refund_failed_at timestamptz;

alter table orders
  add constraint orders_auto_refund_failed_check
  check (auto_refund_failed_at is null or undelivered_at is not null);

-- Orders in that state before this migration: an automatic (system) refund of their accepted
-- payment failed.
update orders
set auto_refund_failed_at = r.failed_at
from (
  select refunds.order_id, min(refunds.finished_at) as failed_at
  from refunds
  join payments on payments.id = refunds.payment_id and payments.status = 'accepted'
  where refunds.actor = 'system' and refunds.status = 'failed'
  group by refunds.order_id
) as r
where r.order_id = orders.id and orders.undelivered_at is not null;
