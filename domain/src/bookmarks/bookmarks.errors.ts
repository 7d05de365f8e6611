import { defineErrors } from '../shared/errors';

/** Bookmarks and lists (spec §2 files/bookmarks, files/lists; §3 Bookmark). */
export const BookmarkErrors = defineErrors({
  notFound: { code: 'BOOKMARK_NOT_FOUND', status: 404, message: 'Bookmark not found' },
  listNotFound: { code: 'BOOKMARK_LIST_NOT_FOUND', status: 404, message: 'List not found' },
  alreadyBookmarked: { code: 'BOOKMARK_EXISTS', status: 409, message: 'This share is already in your bookmarks' },
  listNameExists: { code: 'BOOKMARK_LIST_NAME_EXISTS', status: 409, message: 'A list with this name already exists' },
  invalidTitle: { code: 'INVALID_TITLE', status: 400, message: 'This title is not allowed' },
  tooMany: { code: 'BOOKMARK_LIMIT', status: 409, message: 'You have reached the number of bookmarks or lists you can keep' },
});
