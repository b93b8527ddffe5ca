-- AIGC detection ordered together with a similarity check (issue 14, decision 0020): one upload,
-- one order, one payment; the check job runs the detector beside the comparison and the similarity
-- report gets an AIGC section. One row per check that has the add-on, written with the check at
-- upload. The detector's result is stored (model_key, the section's JSON beside the report files)
-- before the comparison starts, so a run resumed after a restart does not detect again.
create table check_aigc_addons (
  check_id uuid primary key references checks (id),
  -- The AIGC goods (aigc_detection_*) and its name and price at upload (the order's second part).
  goods_id text not null references goods (id),
  goods_name text not null check (char_length(goods_name) between 1 and 60),
  amount_fen integer not null check (amount_fen >= 0),
  -- Paid by the free AIGC detection (the whole check is free: decision 0020).
  free boolean not null default false,
  -- pending (not detected yet) | done (model_key holds the section) | failed (for good: its part
  -- refunded, or its free use given back).
  status text not null default 'pending' check (status in ('pending', 'done', 'failed')),
  model_key text,
  -- The signed figures of the section (also in the report's summary): index 0–100, reliable range.
  score real,
  reliable boolean,
  flagged_chars integer,
  failure_reason text check (char_length(failure_reason) <= 200),
  -- What was given back of the order for this part when it failed (0: nothing, or a free use).
  refunded_fen integer not null default 0 check (refunded_fen >= 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  finished_at timestamptz
);
