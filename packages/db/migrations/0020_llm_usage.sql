-- Token accounting of the LLM provider (apps/server/src/providers/llm): one row per answered
-- Chat Completions call (every attempt that returned usage, including retries of structured
-- output), with the model, the prompt and completion tokens, and the cost at the prices configured
-- when it was made. `order_no` ties the call to the order it worked for (AI writing, 降重); calls
-- made before an order exists (a free title or outline) carry the user only. No foreign keys: the
-- record outlives de-identified orders and deleted accounts, and it is an account of spending.
create table llm_usage (
  id bigint generated always as identity primary key,
  task text not null check (char_length(task) between 1 and 40),
  order_no text check (order_no is null or char_length(order_no) between 1 and 64),
  user_id text check (user_id is null or char_length(user_id) between 1 and 64),
  provider text not null check (provider in ('sandbox', 'openai')),
  model text not null check (char_length(model) between 1 and 200),
  prompt_tokens integer not null check (prompt_tokens >= 0),
  completion_tokens integer not null check (completion_tokens >= 0),
  -- Cost in millionths of a yuan: tokens × (yuan per million tokens) at LLM_PRICE_* of the time.
  cost_micro_yuan bigint not null check (cost_micro_yuan >= 0),
  created_at timestamptz not null default now()
);

create index llm_usage_order_idx on llm_usage (order_no) where order_no is not null;
create index llm_usage_created_idx on llm_usage (created_at);
