import { describe, expect, it } from 'vitest';
import { modulesWithoutForget, type Module } from '../../module';
import { useTestApp } from '../../testing/harness';

const t = useTestApp();

/** The columns of the tables the app's projections made, as PostgreSQL has them. */
const columnsOf = async (): Promise<Map<string, Set<string>>> => {
  const { rows } = await t().app.ctx.pool.query<{ table_name: string; column_name: string }>(
    `select table_name, column_name from information_schema.columns where table_schema = current_schema()`,
  );
  const tables = new Map<string, Set<string>>();
  for (const r of rows) tables.set(r.table_name, (tables.get(r.table_name) ?? new Set()).add(r.column_name));
  return tables;
};

describe('personal data and the account purge', () => {
  it('every module with personal columns in its projections declares forget, so the account purge erases them', () => {
    expect(t().app.modules.filter((m) => m.personalData).length).toBeGreaterThan(0);
    expect(modulesWithoutForget(t().app.modules)).toEqual([]);
  });

  it('a module that declares personal columns but no forget is named', () => {
    const keeper: Module = { name: 'keeper', personalData: { keeper_notes: ['note'] } };
    const forgetful: Module = { ...keeper, name: 'forgetful', forget: async () => {} };
    expect(modulesWithoutForget([...t().app.modules, keeper, forgetful])).toEqual(['keeper']);
  });

  it('the declared personal columns are columns of the module’s own projection tables, as they are in PostgreSQL', async () => {
    const columns = await columnsOf();
    const wrong: string[] = [];
    for (const m of t().app.modules) {
      const own = new Set((m.projections ?? []).flatMap((p) => Object.keys(p.tables)));
      for (const [table, personal] of Object.entries(m.personalData ?? {})) {
        if (!own.has(table)) wrong.push(`${m.name}: ${table} is not a table of its projections`);
        for (const column of personal) if (!columns.get(table)?.has(column)) wrong.push(`${m.name}: ${table}.${column} does not exist`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('module names are unique', () => {
    const names = t().app.modules.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
