import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Routes parse, call and shape: their reads live beside the read model that owns the tables
 * (`projections/src/<model>/<model>.queries.ts`), their other writes in a module's store or service.
 */
const modules = fileURLToPath(new URL('.', import.meta.url));

const routeFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(path);
    return entry.name.endsWith('.routes.ts') ? [path] : [];
  });

const SQL_PATTERNS: readonly RegExp[] = [
  /\.query\s*(<[^>]*>)?\s*\(/,
  // SQL is written in one case (`select`, `SELECT`); prose starts a sentence with `Select`
  /\b(select|SELECT)\b[\s\S]*?\b(from|FROM)\b/,
  /\b(insert|INSERT)\s+(into|INTO)\b/,
  /\b(update|UPDATE)\s+["\w.]+\s+(set|SET)\b/,
  /\b(delete|DELETE)\s+(from|FROM)\b/,
];

/** The text of every string and template literal on a line (comments are not code). */
const STRING_LITERAL = /'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g;

const findSql = (source: string): { line: number; text: string }[] => {
  const found: { line: number; text: string }[] = [];
  const lines = source.split('\n');
  lines.forEach((text, i) => {
    const code = text.replace(/\/\/.*$/, '');
    if (SQL_PATTERNS[0]!.test(code)) {
      found.push({ line: i + 1, text: text.trim() });
      return;
    }
    const strings = code.match(STRING_LITERAL) ?? [];
    if (strings.some((s) => SQL_PATTERNS.slice(1).some((p) => p.test(s)))) found.push({ line: i + 1, text: text.trim() });
  });
  // a template literal spread over several lines: test it whole, report its first line
  for (const match of source.matchAll(/`(?:[^`\\]|\\.)*`/g)) {
    if (!match[0].includes('\n') || !SQL_PATTERNS.slice(1).some((p) => p.test(match[0]))) continue;
    const line = source.slice(0, match.index).split('\n').length;
    if (!found.some((f) => f.line === line)) found.push({ line, text: lines[line - 1]!.trim() });
  }
  return found.sort((a, b) => a.line - b.line);
};

describe('routes hold no SQL', () => {
  it('finds the route files', () => {
    expect(routeFiles(modules).length).toBeGreaterThan(10);
  });

  it('sees a query call and SQL in strings, not words in prose', () => {
    expect(findSql("const { rows } = await ctx.pool.query<Row>('x', [id]);")).toHaveLength(1);
    expect(findSql("const sql = 'select id from shares where owner_id = $1';")).toHaveLength(1);
    expect(findSql('const sql = `\n  delete from carts where id = $1`;')).toHaveLength(1);
    expect(findSql("run('insert into t (a) values (1)');")).toHaveLength(1);
    expect(findSql('db(`update "users" set name = $1`);')).toHaveLength(1);
    expect(findSql("summary: 'Select the files to share from the storage'")).toHaveLength(0);
    expect(findSql('// select the row from the cache')).toHaveLength(0);
    expect(findSql("summary: 'Delete a payee'")).toHaveLength(0);
  });

  it.each(routeFiles(modules).map((file) => [relative(modules, file), file]))('%s calls no query and holds no SQL', (_name, file) => {
    const found = findSql(readFileSync(file, 'utf8')).map((f) => `${relative(modules, file)}:${f.line}: ${f.text}`);
    expect(found, `SQL in a routes file; move it beside its read model:\n${found.join('\n')}`).toEqual([]);
  });
});
