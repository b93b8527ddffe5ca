-- Running daily counters of LLM spending (issue 21, decision 0033): one row per China-time day and
-- scope, added to by the usage recorder in the same transaction as each llm_usage row, so a free
-- AI call reads two rows instead of summing the day's llm_usage. Scopes: 'all' (every call: the
-- global LLM_DAILY_TOKEN_BUDGET) and 'free-user:<user id>' (the calls of that account made without
-- an order — titles, outlines, abstracts: AI_FREE_ACCOUNT_TOKENS_PER_DAY). Upserts add atomically,
-- so every API and worker process counts in the same rows. Account rows are pruned after a week.
create table llm_daily_spend (
  day text not null check (day ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
  scope text not null check (scope = 'all' or scope ~ '^free-user:.{1,64}$'),
  calls integer not null check (calls >= 0),
  tokens bigint not null check (tokens >= 0),
  cost_micro_yuan bigint not null check (cost_micro_yuan >= 0),
  primary key (day, scope)
);

-- What was spent before the counters existed (China time, UTC+8).
insert into llm_daily_spend (day, scope, calls, tokens, cost_micro_yuan)
select to_char(created_at at time zone 'Asia/Shanghai', 'YYYY-MM-DD'), 'all', count(*),
       sum(prompt_tokens + completion_tokens), sum(cost_micro_yuan)
from llm_usage
group by 1;

insert into llm_daily_spend (day, scope, calls, tokens, cost_micro_yuan)
select to_char(created_at at time zone 'Asia/Shanghai', 'YYYY-MM-DD'), 'free-user:' || user_id, count(*),
       sum(prompt_tokens + completion_tokens), sum(cost_micro_yuan)
from llm_usage
where user_id is not null and order_no is null
group by 1, 2;
