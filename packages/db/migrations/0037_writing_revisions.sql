-- Revising one section of a finished AI-written draft (issue 13: /aiWriting/updateOrder) and the
-- unlimited-revisions add-on (/aiWriting/unlimitedRevisions/payment, goods ai_writing_revisions).
-- A finished draft includes a few free section revisions; the add-on, paid once per draft, lifts
-- the limit. A revision rewrites one section in a durable job; the other sections stay as they are.
alter table writings add column revisions_used integer not null default 0 check (revisions_used >= 0);
-- The add-on's order (goods ai_writing_revisions); unlimited_revisions is set once it is paid.
alter table writings add column revisions_order_id uuid unique references orders (id);
alter table writings add column unlimited_revisions boolean not null default false;
-- The revision under way or the last one that failed: {path, instruction, free, state, message}.
alter table writings add column revision jsonb;

update goods
   set description = '已购全文的论文不限次数修改各节正文（每篇全文含 2 次免费修改），每篇 19.9 元。'
 where id = 'ai_writing_revisions';
