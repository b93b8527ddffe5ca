-- The payment sandboxes' books (issue 22): the orders the sandbox WeChat Pay and Alipay platforms
-- were asked to create, their payments, refunds and pending notifications, one row per platform
-- order. Kept in the database, not in a JSON file per process, so that every API process of the
-- scaled mode sees the same books (a refund or /__dev/pay reaching another process than the one
-- that made the QR code finds the trade) and a restart loses nothing. Only the sandboxes use it;
-- `data` is the sandbox's own record (apps/server/src/providers/payment/sandbox-store.ts).
create table payment_sandbox_orders (
  channel text not null check (channel in ('wx', 'ali')),
  order_no text not null check (char_length(order_no) between 1 and 64),
  data jsonb not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  primary key (channel, order_no)
);
