-- AIGC detection (issue 14): a kind of check, sold and ordered like the similarity check (goods of
-- service type 'check', orders in /user/order/check), that runs the AIGC detector (packages/aigc)
-- instead of the comparison. Its report row in check_reports keeps the document's AIGC index as
-- `ratio` (index / 100) and the characters of flagged paragraphs as `copied_chars`; the report model
-- (model_key) says which kind it is.

alter table checks add column kind text not null default 'similarity' check (kind in ('similarity', 'aigc'));

-- The detection stage of an AIGC check ('detecting') beside the comparison's.
alter table checks drop constraint checks_stage_check;
alter table checks add constraint checks_stage_check check (stage in ('parsing', 'comparing', 'detecting', 'reporting'));

-- Goods whose id starts with aigc_detection are AIGC checks (modules/check: checkKindOf). The free
-- AIGC detection earned by binding (entitlement free_aigc_detection) is used on it.
insert into goods (id, service_type, name, description, unit_price_fen, unit_size, unit, min_quantity, max_quantity, free_rule, sort_order) values
  ('aigc_detection_standard', 'check', 'AIGC检测', '逐段估计疑似AI生成内容的AIGC指数（参考值）并说明依据，每千字 1 元。', 100, 1000, '千字', 1, 300000,
   '{"entitlement":"free_aigc_detection","maxQuantity":10000,"text":"绑定手机号或微信后可免费AIGC检测一次（1万字以内）"}', 40);
