import { randomUUID } from 'node:crypto';
import { BookmarkErrors, bookmarksDecider, bookmarksStreamName, checkedTitle, DomainError, type BookmarkCommand, type BookmarksState } from '@axel/domain';
import {
  findBookmark,
  findBookmarkList,
  listBookmarkLists,
  listBookmarks,
  type BookmarkListRow,
  type BookmarkRow,
} from '@axel/projections/bookmarks/bookmarks.queries';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { cachedStreamCommands } from '../../cached-stream';
import type { AppContext } from '../../context';
import { limitsFor } from '../../http/rate-limits';
import { requestMeta } from '../../http/request-meta';
import { requireUser } from '../../http/auth';
import {
  AddBookmarkBody,
  BookmarkListSchema,
  BookmarkParams,
  BookmarkQuery,
  BookmarkSchema,
  ChangeBookmarkBody,
  ErrorSchema,
  ListBody,
  ListParams,
  ListQuery,
  page$,
  type BookmarkJson,
  type BookmarkListJson,
} from './bookmarks.schema';
import { shareToBookmark } from './bookmarks.shares';

const tags = ['bookmarks'];
const shareStatusOf = (r: BookmarkRow, now: Date): BookmarkJson['shareStatus'] => {
  if (r.share_status === null) return 'deleted';
  if (r.share_status === 'revoked') return 'revoked';
  if (r.share_expires_at && r.share_expires_at.getTime() <= now.getTime()) return 'expired';
  return 'active';
};

const bookmarkJson = (r: BookmarkRow, now: Date): BookmarkJson => ({
  id: r.id,
  shareId: r.share_id,
  shareLinkId: r.share_link_id,
  bookmarkListId: r.bookmark_list_id,
  description: r.description,
  createdAt: r.created_at.toISOString(),
  modifiedAt: r.modified_at.toISOString(),
  shareStatus: shareStatusOf(r, now),
  shareKind: r.share_kind,
});
const listJson = (r: BookmarkListRow): BookmarkListJson => ({
  id: r.id,
  name: r.name,
  bookmarksCount: r.bookmarks_count,
  createdAt: r.created_at.toISOString(),
  modifiedAt: r.modified_at.toISOString(),
});

/**
 * A user's bookmark stream grows with every bookmark: its folded state is kept between commands and
 * a command reads only the events written since (see cached-stream.ts), so a command costs the same
 * at 5,000 bookmarks as at 5.
 */
const runBookmarkCommand = cachedStreamCommands(bookmarksDecider);

/** `/bookmarks` and `/bookmarks/lists/`: a user's bookmarks of shares and the lists they sort them into. */
export const bookmarksRoutes = (ctx: AppContext) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = limitsFor(ctx.config.RATE_LIMIT_FACTOR);
  const writes = limit({ perIp: 120 });

  const run = async (request: FastifyRequest, userId: string, command: Omit<BookmarkCommand, 'metadata'>): Promise<BookmarksState> => {
    const meta = requestMeta(request);
    const result = await runBookmarkCommand(ctx, bookmarksStreamName(userId), command, { actorId: userId, actorKind: 'user', ...meta }, (full, state) =>
      bookmarksDecider.decide(full as BookmarkCommand, state),
    );
    if (result.position) await ctx.caughtUp(result.position);
    return result.state;
  };

  const bookmarkRow = (userId: string, bookmarkId: string) => findBookmark(ctx.pool, userId, bookmarkId);
  const listRow = (userId: string, listId: string) => findBookmarkList(ctx.pool, userId, listId);
  /** The read model's row once it has caught up; the decided state is the truth either way. */
  const answerBookmark = async (userId: string, state: BookmarksState, bookmarkId: string): Promise<BookmarkJson> => {
    const b = state.bookmarks[bookmarkId];
    if (!b) throw new DomainError(BookmarkErrors.notFound);
    const row = await bookmarkRow(userId, bookmarkId);
    if (row && row.description === b.description && row.bookmark_list_id === b.bookmarkListId) return bookmarkJson(row, ctx.now());
    const at = ctx.now().toISOString();
    return {
      id: b.id,
      shareId: b.shareId,
      shareLinkId: b.shareLinkId,
      bookmarkListId: b.bookmarkListId,
      description: b.description,
      createdAt: row?.created_at.toISOString() ?? at,
      modifiedAt: at,
      shareStatus: row ? shareStatusOf(row, ctx.now()) : null,
      shareKind: row?.share_kind ?? null,
    };
  };
  const answerList = async (userId: string, state: BookmarksState, listId: string): Promise<BookmarkListJson> => {
    const l = state.lists[listId];
    if (!l) throw new DomainError(BookmarkErrors.listNotFound);
    const row = await listRow(userId, listId);
    if (row && row.name === l.name) return listJson(row);
    const at = ctx.now().toISOString();
    const count = Object.values(state.bookmarks).filter((b) => b.bookmarkListId === listId).length;
    return { id: l.id, name: l.name, bookmarksCount: count, createdAt: row?.created_at.toISOString() ?? at, modifiedAt: at };
  };

  // both spellings of each collection path, with and without the trailing slash
  for (const path of ['/api/bookmarks', '/api/bookmarks/']) {
    app.get(
      path,
      {
        schema: {
          tags,
          summary:
            'Your bookmarks: all, of one list (bookmarkListId) or of none (bookmarkListId=none), or of one share (shareLinkId, shareId); description DESC by default, 500 a page',
          querystring: BookmarkQuery,
          response: { 200: page$(BookmarkSchema), 400: ErrorSchema, 401: ErrorSchema, 404: ErrorSchema },
        },
      },
      async (request) => {
        const { user } = await requireUser(ctx, request);
        const q = request.query;
        if (q.bookmarkListId && q.bookmarkListId !== 'none' && !(await listRow(user.id, q.bookmarkListId))) throw new DomainError(BookmarkErrors.listNotFound);
        const { rows, total: totalCount } = await listBookmarks(
          ctx.pool,
          user.id,
          { bookmarkListId: q.bookmarkListId, shareLinkId: q.shareLinkId, shareId: q.shareId, text: q.q?.trim() },
          q,
        );
        const now = ctx.now();
        return { data: rows.map((r) => bookmarkJson(r, now)), totalCount, page: q.page, perPage: q.perPage };
      },
    );

    app.post(
      path,
      {
        schema: {
          tags,
          summary: 'Bookmark a share you can open by its link (a password share: send its X-Object-Access token); the description defaults to the share title',
          body: AddBookmarkBody,
          response: { 201: BookmarkSchema, 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema, 410: ErrorSchema },
        },
        config: writes,
      },
      async (request, reply) => {
        const { user } = await requireUser(ctx, request);
        const { shareLinkId, description, bookmarkListId } = request.body;
        const token = request.headers['x-object-access'];
        const share = await shareToBookmark(ctx, shareLinkId, user, typeof token === 'string' ? token : undefined);
        const bookmarkId = randomUUID();
        const state = await run(request, user.id, { type: 'AddBookmark', data: { bookmarkId, share, description, bookmarkListId } });
        return reply.status(201).send(await answerBookmark(user.id, state, bookmarkId));
      },
    );
  }

  for (const path of ['/api/bookmarks/lists', '/api/bookmarks/lists/']) {
    app.get(
      path,
      {
        schema: {
          tags,
          summary: 'Your bookmark lists by name, 1000 a page, each with its number of bookmarks',
          querystring: ListQuery,
          response: { 200: page$(BookmarkListSchema), 401: ErrorSchema },
        },
      },
      async (request) => {
        const { user } = await requireUser(ctx, request);
        const { perPage, page } = request.query;
        const { rows, total: totalCount } = await listBookmarkLists(ctx.pool, user.id, page, perPage);
        return { data: rows.map(listJson), totalCount, page, perPage };
      },
    );

    app.post(
      path,
      {
        schema: {
          tags,
          summary: 'Create a list (a title: no emoji, no profanity, unique)',
          body: ListBody,
          response: { 201: BookmarkListSchema, 400: ErrorSchema, 401: ErrorSchema, 409: ErrorSchema },
        },
        config: writes,
      },
      async (request, reply) => {
        const { user } = await requireUser(ctx, request);
        const listId = randomUUID();
        const state = await run(request, user.id, { type: 'CreateBookmarkList', data: { listId, name: request.body.name } });
        return reply.status(201).send(await answerList(user.id, state, listId));
      },
    );
  }

  app.get(
    '/api/bookmarks/lists/:listId',
    { schema: { tags, summary: 'One of your lists', params: ListParams, response: { 200: BookmarkListSchema, 401: ErrorSchema, 404: ErrorSchema } } },
    async (request) => {
      const { user } = await requireUser(ctx, request);
      const row = await listRow(user.id, request.params.listId);
      if (!row) throw new DomainError(BookmarkErrors.listNotFound);
      return listJson(row);
    },
  );

  app.patch(
    '/api/bookmarks/lists/:listId',
    {
      schema: {
        tags,
        summary: 'Rename a list',
        params: ListParams,
        body: ListBody,
        response: { 200: BookmarkListSchema, 400: ErrorSchema, 401: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema },
      },
      config: writes,
    },
    async (request) => {
      const { user } = await requireUser(ctx, request);
      const state = await run(request, user.id, { type: 'RenameBookmarkList', data: { listId: request.params.listId, name: request.body.name } });
      return answerList(user.id, state, request.params.listId);
    },
  );

  app.delete(
    '/api/bookmarks/lists/:listId',
    {
      schema: {
        tags,
        summary: 'Delete a list; its bookmarks go back to no list',
        params: ListParams,
        response: { 204: z.null(), 401: ErrorSchema, 404: ErrorSchema },
      },
      config: writes,
    },
    async (request, reply) => {
      const { user } = await requireUser(ctx, request);
      await run(request, user.id, { type: 'DeleteBookmarkList', data: { listId: request.params.listId } });
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/bookmarks/:bookmarkId',
    { schema: { tags, summary: 'One of your bookmarks', params: BookmarkParams, response: { 200: BookmarkSchema, 401: ErrorSchema, 404: ErrorSchema } } },
    async (request) => {
      const { user } = await requireUser(ctx, request);
      const row = await bookmarkRow(user.id, request.params.bookmarkId);
      if (!row) throw new DomainError(BookmarkErrors.notFound);
      return bookmarkJson(row, ctx.now());
    },
  );

  app.patch(
    '/api/bookmarks/:bookmarkId',
    {
      schema: {
        tags,
        summary: 'Rename a bookmark (description) or move it to a list (bookmarkListId; null for no list)',
        params: BookmarkParams,
        body: ChangeBookmarkBody,
        response: { 200: BookmarkSchema, 400: ErrorSchema, 401: ErrorSchema, 404: ErrorSchema },
      },
      config: writes,
    },
    async (request) => {
      const { user } = await requireUser(ctx, request);
      const { bookmarkId } = request.params;
      const { description, bookmarkListId } = request.body;
      // the title is checked before anything is written, so a refused rename never half-applies a move
      if (description !== undefined) checkedTitle(description, 'description');
      let state: BookmarksState | undefined;
      if (bookmarkListId !== undefined) state = await run(request, user.id, { type: 'MoveBookmark', data: { bookmarkId, bookmarkListId } });
      if (description !== undefined) state = await run(request, user.id, { type: 'RenameBookmark', data: { bookmarkId, description } });
      return answerBookmark(user.id, state!, bookmarkId);
    },
  );

  app.delete(
    '/api/bookmarks/:bookmarkId',
    {
      schema: {
        tags,
        summary: 'Delete a bookmark (the share itself stays)',
        params: BookmarkParams,
        response: { 204: z.null(), 401: ErrorSchema, 404: ErrorSchema },
      },
      config: writes,
    },
    async (request, reply) => {
      const { user } = await requireUser(ctx, request);
      await run(request, user.id, { type: 'RemoveBookmark', data: { bookmarkId: request.params.bookmarkId } });
      return reply.status(204).send(null);
    },
  );
};
