import type { Queryable } from '@axel/platform';

/** `%text%` for `like` / `ilike`, the text's own `\`, `%` and `_` taken literally. */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A page as the product's lists ask for it (`page` from 1) in SQL's terms. */
export const pageWindow = (page: number, perPage: number) => ({ limit: perPage, offset: (page - 1) * perPage });

/**
 * Conditions joined by `and`, each with its values numbered after those already given: `add` takes
 * a clause writer given the placeholders of its values (`$3`, ...).
 */
export const conditions = (first: string, params: readonly unknown[] = []) => {
  const where = [first];
  const values = [...params];
  return {
    add(clause: (...placeholders: string[]) => string, ...added: unknown[]) {
      const placeholders = added.map((value) => `$${values.push(value)}`);
      where.push(clause(...placeholders));
    },
    get sql() {
      return where.join(' and ');
    },
    get params(): readonly unknown[] {
      return values;
    },
  };
};

export interface PageQuery {
  /** The page's columns, over `from`. */
  readonly select: string;
  readonly from: string;
  /** The filter, shared by the page and its count; its placeholders number `params`. */
  readonly where: string;
  readonly params: readonly unknown[];
  /** Settle ties (end with a unique column) so pages never overlap. */
  readonly orderBy: string;
  readonly limit: number;
  readonly offset: number;
}

/** The two statements of a page: its rows (limit and offset as the last two values) and the count of all that match. */
export const pageStatements = (q: PageQuery) => {
  const n = q.params.length;
  return {
    rows: {
      text: `select ${q.select} from ${q.from} where ${q.where} order by ${q.orderBy} limit $${n + 1} offset $${n + 2}`,
      values: [...q.params, q.limit, q.offset],
    },
    count: { text: `select count(*)::int as n from ${q.from} where ${q.where}`, values: [...q.params] },
  };
};

/** One page of a filtered list and the number of rows across all its pages. */
export const queryPage = async <Row extends object>(db: Queryable, q: PageQuery): Promise<{ rows: Row[]; total: number }> => {
  const statements = pageStatements(q);
  const [page, count] = await Promise.all([
    db.query<Row>(statements.rows.text, statements.rows.values),
    db.query<{ n: number }>(statements.count.text, statements.count.values),
  ]);
  return { rows: page.rows, total: count.rows[0]?.n ?? 0 };
};
