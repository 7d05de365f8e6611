import type { Item } from './files.api';

/**
 * Whether every chosen item already sits in the destination folder (`null`: the storage's root):
 * moving them there would change nothing, so the dialog says so instead of offering "Move here".
 * An item whose folder is not known never counts as already there.
 */
export const alreadyIn = (items: readonly Pick<Item, 'parentId'>[], destinationId: string | null): boolean =>
  items.length > 0 && items.every((item) => item.parentId !== undefined && (item.parentId ?? null) === destinationId);
