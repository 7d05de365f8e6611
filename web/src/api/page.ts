/** One page of a list, and how many there are in all. */
export interface Page<T> {
  data: T[];
  totalCount: number;
}

/** Lists come back as `{ data, totalCount }` (or `items` / `entries`, `total`); a bare array is read the same way. */
export const asPage = <T>(answer: unknown): Page<T> => {
  if (Array.isArray(answer)) return { data: answer as T[], totalCount: answer.length };
  const record = (answer ?? {}) as { data?: T[]; items?: T[]; entries?: T[]; totalCount?: number; total?: number };
  const data = record.data ?? record.items ?? record.entries ?? [];
  return { data, totalCount: record.totalCount ?? record.total ?? data.length };
};
