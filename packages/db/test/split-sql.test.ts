import { describe, expect, it } from 'vitest';
import { splitSqlStatements } from '../src/split-sql.ts';

describe('splitSqlStatements', () => {
  it('splits on semicolons, keeps leading comments with their statement, drops comment-only pieces', () => {
    const script = `-- header; with a semicolon
create table a (id int); /* block; comment */
insert into a values (1);
-- trailing comment`;
    expect(splitSqlStatements(script)).toEqual([
      `-- header; with a semicolon\ncreate table a (id int)`,
      `/* block; comment */\ninsert into a values (1)`,
    ]);
  });

  it('keeps semicolons inside strings, identifiers and dollar quotes', () => {
    const script = `insert into t values ('a;b', 'it''s; fine', E'x\\';y');
create table "odd;name" (v text);
create function f() returns int language sql as $body$ select 1; $body$;
do $$ begin perform 1; end $$;`;
    expect(splitSqlStatements(script)).toEqual([
      `insert into t values ('a;b', 'it''s; fine', E'x\\';y')`,
      `create table "odd;name" (v text)`,
      `create function f() returns int language sql as $body$ select 1; $body$`,
      `do $$ begin perform 1; end $$`,
    ]);
  });

  it('handles nested block comments and a missing final semicolon', () => {
    expect(splitSqlStatements('/* a /* b; */ c; */ select 1')).toEqual(['/* a /* b; */ c; */ select 1']);
  });

  it('does not mistake $1 parameters for dollar quotes', () => {
    expect(splitSqlStatements('select $1; select $2')).toEqual(['select $1', 'select $2']);
  });

  it('rejects unterminated quotes', () => {
    expect(() => splitSqlStatements("select 'oops")).toThrow(/Unterminated/);
    expect(() => splitSqlStatements('select $x$ oops')).toThrow(/Unterminated/);
  });
});
