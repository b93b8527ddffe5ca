-- The comparison library keeps each record's abstract and keywords when the imported source has
-- them (issue 13): the writer's reference search (/aiWriting/searchReference) looks in the title,
-- the keywords and the abstract. Records imported before keep working: no abstract, no keywords
-- (importing the same file again does not fill them in: its ids are skipped).
alter table check_library_documents
  add column abstract text check (char_length(abstract) <= 4000),
  add column keywords jsonb not null default '[]';
