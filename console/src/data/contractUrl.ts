/** The staff API's base path, as ra-data-simple-rest sees it. */
export const ADMIN_API = '/api/admin';

/** Collections whose routes end with a slash in the contract (`GET /admin/users/`, `POST /admin/users/`). */
const SLASHED_COLLECTIONS = new Set(['users', 'deleted-users', 'promocodes', 'ipfs-pins', 'drives', 'databases']);

/**
 * ra-data-simple-rest builds `${apiUrl}/${resource}?...` for lists and creates; the contract's
 * collection routes end with a slash, so add it there. Item routes (`/admin/users/:id`) are left as
 * they are.
 */
export const toContractUrl = (url: string): string => {
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const query = queryAt === -1 ? '' : url.slice(queryAt);
  if (!path.startsWith(`${ADMIN_API}/`)) return url;
  const rest = path.slice(ADMIN_API.length + 1);
  return SLASHED_COLLECTIONS.has(rest) ? `${path}/${query}` : url;
};

/** The total from `Content-Range: users 0-9/42`; undefined when absent or unknown (`*`). */
export const totalFromContentRange = (header: string | null): number | undefined => {
  if (!header) return undefined;
  const total = Number.parseInt(header.split('/').pop() ?? '', 10);
  return Number.isFinite(total) ? total : undefined;
};
