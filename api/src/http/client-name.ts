/**
 * The client a request says it comes from (`X-Client`), as the activity log records it. Only the
 * product's own clients are named; anything else is recorded as `unknown`, never as the caller's
 * own text. No header: the web app.
 */
export const KNOWN_CLIENTS = ['web', 'console', 'ios', 'android'] as const;
export type ClientName = (typeof KNOWN_CLIENTS)[number] | 'unknown';

export const clientName = (header: string | string[] | undefined): ClientName => {
  if (header === undefined) return 'web';
  if (typeof header !== 'string') return 'unknown';
  const name = header.trim().toLowerCase();
  return (KNOWN_CLIENTS as readonly string[]).includes(name) ? (name as ClientName) : 'unknown';
};
