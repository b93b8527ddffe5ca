-- The console's queue of refunds that failed (退款未能自动完成, issue 15): an operator retries one
-- at the platform, or marks it done by hand after returning the money another way (a bank
-- transfer); such a refund is succeeded with who did it and how (the audit log has the rest).
alter table refunds add column handled_by text;
alter table refunds add column handled_note text;
