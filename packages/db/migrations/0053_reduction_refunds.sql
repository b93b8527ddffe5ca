-- 降重 / 降AIGC charge only for what is delivered (issue 21, decision 0027): when the rewrite job
-- ends, the part of the price that pays for target paragraphs not rewritten (every rewrite failed a
-- check) is refunded automatically through the orders module; none rewritten: the whole price.
-- refund_fen is what the job decided to give back (null: not decided yet, 0: nothing); where that
-- money is (refunding, refunded, refused by the platform) is read from the order's refunds.
alter table reductions add column refund_fen integer check (refund_fen is null or refund_fen >= 0);
