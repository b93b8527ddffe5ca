-- Operator information shown in the public footer (spec §1, §3 home info). One row only.
create table site_settings (
  id smallint primary key default 1 check (id = 1),
  name text not null check (name <> ''),
  contact_phone text not null,
  company_address text not null,
  qr_code text not null,
  record_number text not null,
  copyright text not null,
  updated_at timestamptz not null default now()
);

-- Friend links in the footer, shown in sort_order.
create table friend_links (
  id integer generated always as identity primary key,
  name text not null check (length(name) between 1 and 50),
  url text not null check (url ~ '^https?://'),
  sort_order integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create index friend_links_sort_order_idx on friend_links (sort_order, id);
