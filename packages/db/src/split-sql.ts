/**
 * Splits a SQL script into single statements.
 *
 * Why: PGlite runs parameterised queries with the extended protocol, which accepts one statement
 * per query ("cannot insert multiple commands into a prepared statement"), while a migration file
 * holds many. Splitting here keeps one code path for PGlite and pg.
 *
 * Understands what can hide a `;`: '-- line' and '/* block *\/' comments (nested, as PostgreSQL
 * allows), 'single-quoted' strings ('' escapes), E'...' strings (backslash escapes), "quoted
 * identifiers" and $tag$ dollar-quoted bodies $tag$. Statements that hold only comments are dropped.
 */
export function splitSqlStatements(script: string): string[] {
  const statements: string[] = [];
  let start = 0;
  let hasCode = false;
  let i = 0;
  const n = script.length;

  const push = (end: number) => {
    const text = script.slice(start, end).trim();
    if (hasCode && text) statements.push(text);
    hasCode = false;
  };

  while (i < n) {
    const ch = script[i];
    const next = script[i + 1];

    if (ch === '-' && next === '-') {
      const eol = script.indexOf('\n', i);
      i = eol === -1 ? n : eol + 1;
      continue;
    }
    if (ch === '/' && next === '*') {
      i = skipBlockComment(script, i);
      continue;
    }
    if (ch === ';') {
      push(i);
      i += 1;
      start = i;
      continue;
    }
    if (!/\s/.test(ch)) hasCode = true;

    if (ch === "'") {
      const isEscapeString = i > 0 && /[eE]/.test(script[i - 1]) && !/\w/.test(script[i - 2] ?? '');
      i = skipQuoted(script, i, "'", isEscapeString);
      continue;
    }
    if (ch === '"') {
      i = skipQuoted(script, i, '"', false);
      continue;
    }
    if (ch === '$') {
      const tag = /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/.exec(script.slice(i))?.[0];
      // `$1` (a parameter) or `a$b` (part of an identifier) is not a dollar quote.
      if (tag && !/\w/.test(script[i - 1] ?? '')) {
        const close = script.indexOf(tag, i + tag.length);
        if (close === -1) throw new Error(`Unterminated dollar-quoted string ${tag} in SQL script`);
        i = close + tag.length;
        continue;
      }
    }
    i += 1;
  }
  push(n);
  return statements;
}

function skipBlockComment(script: string, from: number): number {
  let depth = 0;
  let i = from;
  while (i < script.length) {
    if (script[i] === '/' && script[i + 1] === '*') {
      depth += 1;
      i += 2;
    } else if (script[i] === '*' && script[i + 1] === '/') {
      depth -= 1;
      i += 2;
      if (depth === 0) return i;
    } else {
      i += 1;
    }
  }
  throw new Error('Unterminated block comment in SQL script');
}

function skipQuoted(script: string, from: number, quote: string, backslashEscapes: boolean): number {
  let i = from + 1;
  while (i < script.length) {
    const ch = script[i];
    if (backslashEscapes && ch === '\\') {
      i += 2;
      continue;
    }
    if (ch === quote) {
      if (script[i + 1] === quote) {
        i += 2;
        continue;
      }
      return i + 1;
    }
    i += 1;
  }
  throw new Error(`Unterminated ${quote} quoted text in SQL script`);
}
