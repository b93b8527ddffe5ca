-- A goods whose collections are empty is not sold as if they were not (issue 12). Each check goods
-- may name the collections it cannot be sold without: what sets it apart from the others. 硕博
-- "比对范围另含学位论文库" compares with the thesis collection besides what 本科 compares with; while
-- that collection holds no document it would give exactly the 本科 result at ¥3.00 instead of ¥2.00,
-- so it is not sold until theses are imported (`npm run library:import -- --collection thesis`).
-- Every check goods is also refused while all the collections it names are empty (checked in code).
alter table goods add column library_required text[]
  check (library_required <@ array['journal', 'thesis', 'web', 'user']::text[]);
update goods set library_required = array['thesis'] where id = 'check_master';
