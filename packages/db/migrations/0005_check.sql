-- Paper checks (issue 6): one row per uploaded paper, its signed report, and the catalogue of the
-- reference library (what the similarity index does not keep: authors, year, source, content hash).
-- All times are written by the server's clock; the defaults only guard against a forgotten column.

-- One uploaded paper and its check. A paid check shares its id with its order (the web passes one
-- `orderId` to every /freeCheck call, including the orders module's payment routes); a free check
-- (the account's free_check entitlement) has no order.
create table checks (
  id uuid primary key default gen_random_uuid(),
  -- 'JC' + yyyyMMddHHmmss (China time) + 6 random digits; shown as the order number of a free check.
  check_no text not null unique check (check_no ~ '^JC[0-9]{20}$'),
  -- Account rows are kept (de-identified) when an account is deleted, so no cascade.
  user_id uuid not null references users (id),
  order_id uuid unique references orders (id),
  goods_id text not null references goods (id),
  title text not null check (char_length(title) between 1 and 200),
  author text not null check (char_length(author) between 1 and 100),
  file_name text not null check (char_length(file_name) between 1 and 255),
  file_format text not null check (file_format in ('txt', 'docx', 'doc', 'pdf')),
  file_bytes integer not null check (file_bytes > 0),
  file_sha256 text not null check (file_sha256 ~ '^[0-9a-f]{64}$'),
  -- Relative to the file storage (DATA_DIR/files): the upload and its extracted text. Null once the
  -- user deleted the check (files removed).
  file_key text check (char_length(file_key) <= 200),
  text_key text check (char_length(text_key) <= 200),
  -- Billed characters: code points of the extracted text other than whitespace.
  chars integer not null check (chars > 0),
  amount_fen integer not null check (amount_fen >= 0),
  free boolean not null,
  -- The user's choice at upload: add the paper to the comparison library after the check.
  add_to_library boolean not null default false,
  -- Set once the paper was added to the library (its document id in the index).
  library_doc_id text check (char_length(library_doc_id) <= 200),
  status text not null default 'pending' check (status in ('pending', 'queued', 'running', 'done', 'failed')),
  stage text check (stage in ('parsing', 'comparing', 'reporting')),
  progress smallint not null default 0 check (progress between 0 and 100),
  -- Shown to the user when status = 'failed' (with the way forward).
  failure_reason text check (char_length(failure_reason) <= 500),
  job_id uuid,
  runs integer not null default 0 check (runs >= 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz,
  -- The user's delete hides the check and removes its files; the order (money) stays.
  hidden_at timestamptz,
  check (free = (order_id is null)),
  check (order_id is null or order_id = id),
  check (free or amount_fen > 0),
  check (not free or amount_fen = 0),
  check ((status = 'failed') = (failure_reason is not null)),
  check (status <> 'done' or finished_at is not null)
);

create index checks_user_idx on checks (user_id, created_at desc) where hidden_at is null;
create index checks_active_idx on checks (updated_at) where status in ('queued', 'running');

-- The report of a finished check. The summary is what verification shows; `signature` is the
-- server's HMAC-SHA256 over it (REPORT_SIGNING_SECRET), so a changed row or a forged PDF is caught.
-- Rows stay when the user deletes the check (only the files go), so printed reports stay verifiable.
create table check_reports (
  check_id uuid primary key references checks (id),
  -- 'BG' + yyyyMMdd + 8 characters from an unambiguous alphabet.
  report_no text not null unique check (report_no ~ '^BG[0-9]{8}[0-9A-Z]{8}$'),
  verification_code text not null check (verification_code ~ '^[0-9A-Z]{8}$'),
  summary jsonb not null,
  signature text not null check (signature ~ '^[0-9a-f]{64}$'),
  ratio double precision not null check (ratio between 0 and 1),
  total_chars integer not null check (total_chars >= 0),
  copied_chars integer not null check (copied_chars >= 0),
  -- Storage keys of the report model and the rendered files; null once deleted.
  model_key text check (char_length(model_key) <= 200),
  pdf_key text check (char_length(pdf_key) <= 200),
  marked_pdf_key text check (char_length(marked_pdf_key) <= 200),
  html_key text check (char_length(html_key) <= 200),
  zip_key text check (char_length(zip_key) <= 200),
  checked_at timestamptz not null,
  created_at timestamptz not null default now()
);

-- The reference library's catalogue in the scaled mode (DATABASE_URL); the embedded mode keeps the
-- same entries in DATA_DIR/index/catalog.jsonl beside the local index.
create table check_library_documents (
  id text primary key check (char_length(id) between 1 and 300),
  title text check (char_length(title) <= 500),
  authors jsonb not null default '[]',
  year integer check (year between 1000 and 3000),
  source text check (char_length(source) <= 300),
  content_hash text not null unique check (content_hash ~ '^[0-9a-f]{64}$'),
  chars integer not null check (chars >= 0),
  origin text not null check (origin in ('import', 'upload')),
  added_at timestamptz not null default now()
);
