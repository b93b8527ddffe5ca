-- The payment sandboxes' fault switches (issue 22): what POST /__dev/pay/faults turns on — the next
-- notifications lost, doubled or failing, API calls failing, refunds refused — one row per sandbox
-- platform. Kept in the database beside the sandbox's books (migration 0059), not in the memory of
-- the process that was asked, so that a fault switched on through one API process of the scaled
-- mode is in force in every process, and each counted fault is consumed once across them all.
create table payment_sandbox_faults (
  channel text primary key check (channel in ('wx', 'ali')),
  fail_next integer not null default 0 check (fail_next between 0 and 1000),
  drop_next integer not null default 0 check (drop_next between 0 and 1000),
  duplicate_next integer not null default 0 check (duplicate_next between 0 and 1000),
  duplicate_concurrently boolean not null default false,
  delay_ms integer not null default 0 check (delay_ms between 0 and 3600000),
  fail_api_next integer not null default 0 check (fail_api_next between 0 and 1000),
  refuse_refund_next integer not null default 0 check (refuse_refund_next between 0 and 1000),
  updated_at timestamptz not null default now()
);

insert into payment_sandbox_faults (channel) values ('wx'), ('ali');
