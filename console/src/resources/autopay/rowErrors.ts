export interface ImportRowError {
  readonly row: number;
  readonly field: string;
  readonly message: string;
}

export interface ImportResult {
  readonly imported: number;
  readonly errors: readonly ImportRowError[];
}

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Row errors from an import answer or refusal, wherever the server put them. */
export const rowErrorsOf = (body: unknown): ImportRowError[] => {
  const source = isRecord(body) ? (body.errors ?? (isRecord(body.data) ? (body.data.errors ?? body.data.rows) : undefined)) : undefined;
  if (!Array.isArray(source)) return [];
  return source.filter(isRecord).map((e) => ({
    row: typeof e.row === 'number' ? e.row : Number(e.row ?? 0),
    field: typeof e.field === 'string' ? e.field : '',
    message: typeof e.message === 'string' ? e.message : String(e.code ?? ''),
  }));
};
