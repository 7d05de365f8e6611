import { toApiError } from '../../api/errors';

/** Attempts at a free name ("Shared 2026-03-01 14h05", then "… (2)", …) before giving up. */
export const CART_FOLDER_ATTEMPTS = 20;

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The cart's date and time as a folder name may hold them: the owner's local day and minute, the
 * time as 14h05 (names refuse ":", and folder names any dot).
 */
export const cartFolderStamp = (now: Date): string =>
  `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())} ${pad(now.getHours())}h${pad(now.getMinutes())}`;

/** The n-th name tried (0: the name itself, then "name (2)", "name (3)", …). */
export const nthFolderName = (base: string, attempt: number): string => (attempt === 0 ? base : `${base} (${attempt + 1})`);

/**
 * Creates the cart's folder under the first free name: a name taken (409 NAME_EXISTS, another cart
 * of the same minute) moves to the next; any other refusal is the caller's to show.
 */
export const createCartFolder = async (
  base: string,
  create: (name: string) => Promise<{ id: string }>,
  attempts = CART_FOLDER_ATTEMPTS,
): Promise<{ id: string; name: string }> => {
  for (let attempt = 0; ; attempt++) {
    const name = nthFolderName(base, attempt);
    try {
      return { id: (await create(name)).id, name };
    } catch (raw) {
      const error = toApiError(raw);
      if (error.code !== 'NAME_EXISTS' || attempt + 1 >= attempts) throw error;
    }
  }
};

/** While uploads run, leaving the page asks first (the browser shows its own question). */
export const warnBeforeUnload = (event: { preventDefault: () => void; returnValue?: unknown }) => {
  event.preventDefault();
  // older browsers ask only when returnValue is set
  event.returnValue = '';
};
