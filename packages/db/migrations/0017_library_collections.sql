-- The comparison library knows its collections (issue 12): each document belongs to one — journal
-- (学术期刊库), thesis (学位论文库), web (互联网资源库), user (papers users opted in) — set at import
-- (`npm run library:import -- --collection <c>`), and each check goods names the collections it
-- compares against, so 硕博 "含学位论文库" really compares with the thesis collection, and the pages
-- state the library's real composition. Documents imported before are journal (the only collection
-- imported then, the CSL journal abstracts); users' opted-in papers are user.
alter table check_library_documents
  add column collection text not null default 'journal'
    check (collection in ('journal', 'thesis', 'web', 'user')),
  add column discipline text check (char_length(discipline) <= 100);
update check_library_documents set collection = 'user' where origin = 'upload';
create index check_library_documents_collection_idx on check_library_documents (collection);

-- The import used the file's name as the source of records that named none ("csl_papers", with ids
-- "csl_papers:<n>"): that is not where a paper was published.
update check_library_documents set source = null where left(id, char_length(source) + 1) = source || ':';

-- What each check goods compares against (null: every collection).
alter table goods add column library_collections text[]
  check (library_collections <@ array['journal', 'thesis', 'web', 'user']::text[]);
update goods set library_collections = array['journal', 'web', 'user'] where id = 'check_undergrad';
update goods set library_collections = array['journal', 'thesis', 'web', 'user'] where id = 'check_master';
update goods set library_collections = array['journal', 'web'] where id = 'check_journal';

-- The descriptions claimed library contents ("比对库含学位论文库"); the goods card now states its
-- comparison scope from the library itself (each collection with its real size, 暂无收录 when empty).
update goods set description = '适用于专科、本科毕业论文，按字符数计费，每千字 2 元。' where id = 'check_undergrad';
update goods set description = '适用于硕士、博士学位论文，比对范围另含学位论文库，每千字 3 元。' where id = 'check_master';
update goods set description = '适用于期刊投稿、职称评审论文，每千字 2.5 元。' where id = 'check_journal';
