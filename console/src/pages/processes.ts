import type { ProcessHistoryEntry, ProcessRecord } from '../data/dataProvider';

export type ProcessesView =
  | { readonly kind: 'loading' }
  | { readonly kind: 'unavailable' }
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'loaded'; readonly rows: readonly ProcessRecord[] };

/**
 * A 404 (or 501) means this server has no process monitor yet: say so calmly instead of raising an
 * error. Anything else is a real failure and shows the server's message.
 */
export const processesViewForError = (error: unknown): ProcessesView => {
  const status = (error as { status?: unknown } | null)?.status;
  if (status === 404 || status === 501) return { kind: 'unavailable' };
  const message = (error as { message?: unknown } | null)?.message;
  return { kind: 'error', message: typeof message === 'string' && message ? message : String(error) };
};

export const canRetry = (row: Pick<ProcessRecord, 'status'>): boolean => row.status === 'dead_letter';

/** Dead letters first (they need a person), then the most recently updated. */
export const sortProcesses = (rows: readonly ProcessRecord[]): ProcessRecord[] =>
  [...rows].sort((a, b) => Number(canRetry(b)) - Number(canRetry(a)) || String(b.updatedAt).localeCompare(String(a.updatedAt)));

/** One input of a process's history in a few words: which event arrived, which timer fired, which signal came. */
export const describeInput = (entry: Pick<ProcessHistoryEntry, 'kind' | 'input'>): { key: string; name: string } => {
  const input = (entry.input ?? {}) as { event?: { type?: unknown }; name?: unknown };
  const name = entry.kind === 'event' ? String(input.event?.type ?? '') : String(input.name ?? '');
  return { key: `console.processes.inputs.${entry.kind}`, name };
};

/** The commands an input sent, with whether each has been delivered: "PurgeAccount (sent)". */
export const describeCommands = (entry: Pick<ProcessHistoryEntry, 'commands'>): { type: string; sent: boolean }[] =>
  entry.commands.map((c) => ({ type: String(c.command?.type ?? '?'), sent: c.dispatchedAt !== null }));
