-- Images uploaded in the operator console for industry news (article covers; case photos in 0033).
-- Each upload is cropped to 16:9 and stored as WebP at the spec's image breakpoints and their
-- double-density widths (§9: 320 … 1536, densities 1 and 2) that the original can fill, plus one
-- JPEG for share previews (Open Graph), under files/news/images/<id>/. The row says which widths exist.
create table news_images (
  id uuid primary key,
  width integer not null check (width > 0),
  height integer not null check (height > 0),
  -- jsonb number[]: the stored widths, ascending (w<width>.webp)
  widths jsonb not null,
  size_bytes integer not null check (size_bytes > 0),
  created_at timestamptz not null default now()
);

alter table articles add column cover_id uuid references news_images (id);
