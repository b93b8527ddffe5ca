-- Orders whose service could not be delivered (modules/orders/README.md, "A service that can no
-- longer be delivered is refunded"): a payment accepted for a check deleted meanwhile, or a paid
-- check that failed for good. Their payment is refunded in full automatically; the order says so
-- (`undelivered_text`, a few words such as 检测失败, shown as '<text>，已自动退款' once the platform
-- confirmed the refund and '<text>，正在自动退款' before) and is never put on an invoice.
alter table orders
  add column undelivered_at timestamptz,
  add column undelivered_text text check (char_length(undelivered_text) between 1 and 30);

alter table orders
  add constraint orders_undelivered_check check ((undelivered_at is null) = (undelivered_text is null));

-- Orders refunded this way before this migration: a system refund of the payment that paid them
-- (the only such refunds were those of checks deleted before their payment was accepted).
update orders
set undelivered_at = r.first_at, undelivered_text = '服务无法提供'
from (
  select refunds.order_id, min(refunds.created_at) as first_at
  from refunds
  join payments on payments.id = refunds.payment_id and payments.status = 'accepted'
  where refunds.actor = 'system'
  group by refunds.order_id
) as r
where r.order_id = orders.id;
