-- The landing page's case/showcase images (spec §7 /home/casePhoto), managed in the operator
-- console: an image from news_images, a title, a caption, an optional site path it links to, the
-- display order and whether it is shown. Nothing is seeded: the section stays hidden until an
-- operator adds a photo.
create table case_photos (
  id bigint generated always as identity primary key,
  image_id uuid not null references news_images (id),
  title text not null check (char_length(title) between 1 and 40),
  caption text not null default '' check (char_length(caption) <= 120),
  link_path text check (link_path is null or (link_path ~ '^/[A-Za-z0-9/_-]*$' and char_length(link_path) <= 200)),
  sort_order integer not null default 0,
  visible boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index case_photos_order_idx on case_photos (visible, sort_order, id);
