import BookmarkBorderOutlined from '@mui/icons-material/BookmarkBorderOutlined';
import CreateNewFolderOutlined from '@mui/icons-material/CreateNewFolderOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import DriveFileMoveOutlined from '@mui/icons-material/DriveFileMoveOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import LinkOutlined from '@mui/icons-material/LinkOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { toApiError, type NormalisedError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatDateTime, translateError } from '../../components/i18nHelpers';
import { useLoad } from '../../components/useLoad';
import { useSession } from '../../session/store';
import { AddByLinkDialog, ConfirmDialog, MoveDialog, PasswordDialog, TitleDialog } from './BookmarkDialogs';
import { BOOKMARKS_PAGE_SIZE, bookmarksApi, type Bookmark, type BookmarkList } from './bookmarks.api';
import { useOpenBookmark } from './useOpenBookmark';

type DialogState =
  | { kind: 'rename'; bookmark: Bookmark }
  | { kind: 'move'; bookmark: Bookmark }
  | { kind: 'delete'; bookmark: Bookmark }
  | { kind: 'createList' }
  | { kind: 'renameList'; list: BookmarkList }
  | { kind: 'deleteList'; list: BookmarkList }
  | { kind: 'addByLink' };

const fail = (e: unknown) => toApiError(e).toJSON();

/**
 * files/bookmarks/:shareId? (all bookmarks; a link id opens that bookmark) and files/lists/:listId
 * (one list): bookmarks by description, newest words first (DESC, the spec's default), with rename,
 * move and delete; lists with create, rename and delete.
 */
export const BookmarksPage = () => {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSession();
  const { listId, shareId: openLinkId } = useParams();
  const [openFailure, setOpenFailure] = useState<{ name: string; error: NormalisedError } | null>(null);
  const [page, setPage] = useState(1);
  const [q, setQ] = useState('');
  const [query, setQuery] = useState('');
  const [dialog, setDialog] = useState<DialogState | null>(null);
  const [dialogError, setDialogError] = useState<NormalisedError | null>(null);
  const [busy, setBusy] = useState(false);

  const home = listId ? `/files/lists/${encodeURIComponent(listId)}` : '/files/bookmarks';

  useEffect(() => {
    const id = setTimeout(() => {
      setQuery(q.trim());
      setPage(1);
    }, 250);
    return () => clearTimeout(id);
  }, [q]);
  useEffect(() => setPage(1), [listId]);

  const loaded = useLoad(
    user
      ? () =>
          Promise.all([bookmarksApi.lists(), bookmarksApi.list({ bookmarkListId: listId, q: query || undefined, page })]).then(([l, listing]) => ({
            lists: l.data,
            listing,
          }))
      : null,
    [user, listId, query, page],
  );
  const lists = loaded.data?.lists ?? null;
  const listing = loaded.error ? null : (loaded.data?.listing ?? null);
  const { error, reload } = loaded;

  const opener = useOpenBookmark(user?.email ?? null, (bookmark, output) => {
    if (output.outcome === 'open') {
      navigate(output.path);
      return;
    }
    if (output.outcome === 'back') setOpenFailure({ name: bookmark.description, error: output.error });
    if (openLinkId) navigate(home, { replace: true });
  });

  // files/bookmarks/<shareId or linkId>: open that bookmark (a deep link, or the way back from a share page)
  const deepLinked = useMemo(
    () => (openLinkId && listing ? (listing.data.find((b) => b.shareLinkId === openLinkId || b.shareId === openLinkId) ?? null) : null),
    [openLinkId, listing],
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the link, its bookmark or the first listing arrives; the opener and navigate change on every render
  useEffect(() => {
    if (!openLinkId) return;
    const none = () => navigate('/files/bookmarks', { replace: true });
    if (deepLinked && opener.opening?.id !== deepLinked.id) opener.start(deepLinked);
    else if (listing && !deepLinked) {
      // not on this page: looked up by its link id or share id
      const lookup = /^[A-Za-z0-9_-]{22}$/.test(openLinkId) ? bookmarksApi.ofLink(openLinkId) : bookmarksApi.ofShare(openLinkId);
      void lookup.then((b) => (b ? opener.start(b) : none()), none);
    }
  }, [openLinkId, deepLinked?.id, listing !== null]);

  const act = useCallback(
    async (run: () => Promise<unknown>) => {
      setBusy(true);
      setDialogError(null);
      try {
        await run();
        setDialog(null);
        reload();
      } catch (e) {
        setDialogError(fail(e));
      } finally {
        setBusy(false);
      }
    },
    [reload],
  );

  if (!user) return null;
  const current = listId ? lists?.find((l) => l.id === listId) : undefined;
  const listMissing = listId !== undefined && lists !== null && !current;
  const listName = (id: string | null) => (id ? lists?.find((l) => l.id === id)?.name : undefined);
  const items = listing?.data ?? [];
  const pages = Math.max(1, Math.ceil((listing?.totalCount ?? 0) / BOOKMARKS_PAGE_SIZE));
  const openDialog = (d: DialogState) => {
    setDialogError(null);
    setDialog(d);
  };

  return (
    <Container maxWidth="lg" sx={{ py: 3 }} data-testid="bookmarks-page">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 2, flexWrap: 'wrap' }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1 }} data-testid="bookmarks-heading">
          {current ? current.name : t('bookmarks.title')}
        </Typography>
        <Button startIcon={<LinkOutlined />} onClick={() => openDialog({ kind: 'addByLink' })} data-testid="bookmark-add-by-link">
          {t('bookmarks.addByLink')}
        </Button>
        {current && (
          <>
            <Button startIcon={<EditOutlined />} onClick={() => openDialog({ kind: 'renameList', list: current })} data-testid="list-rename">
              {t('bookmarks.renameList')}
            </Button>
            <Button color="error" startIcon={<DeleteOutlined />} onClick={() => openDialog({ kind: 'deleteList', list: current })} data-testid="list-delete">
              {t('bookmarks.deleteList')}
            </Button>
          </>
        )}
      </Box>
      <TextField
        size="small"
        label={t('bookmarks.search')}
        value={q}
        onChange={(e) => setQ(e.target.value)}
        sx={{ mb: 2, width: { xs: '100%', sm: 360 } }}
        slotProps={{ htmlInput: { 'data-testid': 'bookmarks-search' } }}
      />
      {openFailure && (
        <Alert
          severity="error"
          role="alert"
          onClose={() => setOpenFailure(null)}
          sx={{ mb: 2 }}
          data-testid="bookmark-open-error"
          data-error-code={openFailure.error.code}
        >
          {t('bookmarks.openFailed', { name: openFailure.name })} {translateError(t, i18n.language, openFailure.error)}
        </Alert>
      )}
      {opener.busy && <LinearProgress aria-label={t('bookmarks.opening')} sx={{ mb: 1 }} data-testid="bookmark-opening" />}
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', flexDirection: { xs: 'column', md: 'row' } }}>
        <Paper variant="outlined" sx={{ width: { xs: '100%', md: 260 }, flexShrink: 0 }}>
          <List dense data-testid="bookmark-lists" subheader={<ListSubheader>{t('bookmarks.lists')}</ListSubheader>}>
            <ListItemButton component={RouterLink} to="/files/bookmarks" selected={!listId} data-testid="lists-all">
              <ListItemText primary={t('bookmarks.all')} />
            </ListItemButton>
            {(lists ?? []).map((l) => (
              <ListItemButton
                key={l.id}
                component={RouterLink}
                to={`/files/lists/${encodeURIComponent(l.id)}`}
                selected={l.id === listId}
                data-testid={`list-${l.id}`}
              >
                <ListItemText primary={l.name} secondary={t('bookmarks.count', { count: l.bookmarksCount })} />
              </ListItemButton>
            ))}
          </List>
          <Box sx={{ p: 1 }}>
            <Button fullWidth startIcon={<CreateNewFolderOutlined />} onClick={() => openDialog({ kind: 'createList' })} data-testid="list-create">
              {t('bookmarks.newList')}
            </Button>
          </Box>
        </Paper>
        <Paper variant="outlined" sx={{ flex: 1, width: '100%', overflowX: 'auto' }}>
          <ErrorAlert error={error} testId="bookmarks-error" />
          {listMissing && (
            <Alert
              severity="warning"
              sx={{ m: 2 }}
              data-testid="list-missing"
              action={
                <Button component={RouterLink} to="/files/bookmarks">
                  {t('bookmarks.back')}
                </Button>
              }
            >
              {t('bookmarks.listMissing')}
            </Alert>
          )}
          {!listing && !error && <LinearProgress aria-label={t('common.loading')} />}
          {listing && items.length === 0 && !listMissing && (
            <Box sx={{ p: 6, textAlign: 'center', color: 'text.secondary' }} data-testid="bookmarks-empty">
              <BookmarkBorderOutlined sx={{ fontSize: 40, mb: 1 }} />
              <Typography>{query ? t('bookmarks.noMatch', { q: query }) : listId ? t('bookmarks.emptyList') : t('bookmarks.empty')}</Typography>
            </Box>
          )}
          {items.length > 0 && (
            <Table size="small" data-testid="bookmarks-table">
              <TableHead>
                <TableRow>
                  <TableCell>{t('bookmarks.bookmarkTitle')}</TableCell>
                  {!listId && <TableCell>{t('bookmarks.list')}</TableCell>}
                  <TableCell>{t('bookmarks.added')}</TableCell>
                  <TableCell align="right">{t('bookmarks.actions')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {items.map((b) => (
                  <TableRow key={b.id} hover data-testid="bookmark-row" data-bookmark-id={b.id}>
                    <TableCell>
                      <Link component="button" type="button" onClick={() => opener.start(b)} data-testid="bookmark-open" sx={{ textAlign: 'left' }}>
                        {b.description}
                      </Link>
                      {b.shareStatus && b.shareStatus !== 'active' && (
                        <Chip
                          size="small"
                          color="warning"
                          variant="outlined"
                          sx={{ ml: 1 }}
                          label={t(`bookmarks.shareStatus.${b.shareStatus}`)}
                          data-testid="bookmark-share-status"
                        />
                      )}
                    </TableCell>
                    {!listId && (
                      <TableCell>
                        {b.bookmarkListId ? <Chip size="small" label={listName(b.bookmarkListId) ?? '…'} data-testid="bookmark-list-chip" /> : null}
                      </TableCell>
                    )}
                    <TableCell>{formatDateTime(b.createdAt, i18n.language)}</TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      <Tooltip title={t('bookmarks.rename')}>
                        <IconButton
                          size="small"
                          aria-label={t('bookmarks.rename')}
                          onClick={() => openDialog({ kind: 'rename', bookmark: b })}
                          data-testid="bookmark-rename"
                        >
                          <EditOutlined fontSize="small" />
                        </IconButton>
                      </Tooltip>
                      <Tooltip title={t('bookmarks.move')}>
                        <IconButton
                          size="small"
                          aria-label={t('bookmarks.move')}
                          onClick={() => openDialog({ kind: 'move', bookmark: b })}
                          data-testid="bookmark-move"
                        >
                          <DriveFileMoveOutlined fontSize="small" />
                        </IconButton>
                      </Tooltip>
                      <Tooltip title={t('bookmarks.delete')}>
                        <IconButton
                          size="small"
                          aria-label={t('bookmarks.delete')}
                          onClick={() => openDialog({ kind: 'delete', bookmark: b })}
                          data-testid="bookmark-delete"
                        >
                          <DeleteOutlined fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </Paper>
      </Box>
      {pages > 1 && (
        <Box sx={{ display: 'flex', justifyContent: 'center', mt: 2 }}>
          <Pagination count={pages} page={page} onChange={(_, p) => setPage(p)} />
        </Box>
      )}

      <TitleDialog
        open={dialog?.kind === 'rename'}
        busy={busy}
        error={dialogError}
        onClose={() => setDialog(null)}
        title={t('bookmarks.renameTitle')}
        label={t('bookmarks.bookmarkTitle')}
        initial={dialog?.kind === 'rename' ? dialog.bookmark.description : ''}
        submitLabel={t('bookmarks.save')}
        onSubmit={(description) => dialog?.kind === 'rename' && void act(() => bookmarksApi.rename(dialog.bookmark.id, description))}
      />
      <MoveDialog
        open={dialog?.kind === 'move'}
        busy={busy}
        error={dialogError}
        onClose={() => setDialog(null)}
        name={dialog?.kind === 'move' ? dialog.bookmark.description : ''}
        lists={lists ?? []}
        current={dialog?.kind === 'move' ? dialog.bookmark.bookmarkListId : null}
        onSubmit={(target) => dialog?.kind === 'move' && void act(() => bookmarksApi.move(dialog.bookmark.id, target))}
      />
      <ConfirmDialog
        open={dialog?.kind === 'delete' || dialog?.kind === 'deleteList'}
        busy={busy}
        error={dialogError}
        onClose={() => setDialog(null)}
        title={dialog?.kind === 'deleteList' ? t('bookmarks.deleteListTitle') : t('bookmarks.deleteTitle')}
        body={
          dialog?.kind === 'deleteList'
            ? t('bookmarks.deleteListBody', { name: dialog.list.name })
            : dialog?.kind === 'delete'
              ? t('bookmarks.deleteBody', { name: dialog.bookmark.description })
              : ''
        }
        onConfirm={() => {
          if (dialog?.kind === 'delete') void act(() => bookmarksApi.remove(dialog.bookmark.id));
          if (dialog?.kind === 'deleteList')
            void act(async () => {
              await bookmarksApi.deleteList(dialog.list.id);
              navigate('/files/bookmarks');
            });
        }}
      />
      <TitleDialog
        open={dialog?.kind === 'createList' || dialog?.kind === 'renameList'}
        busy={busy}
        error={dialogError}
        onClose={() => setDialog(null)}
        title={dialog?.kind === 'renameList' ? t('bookmarks.renameListTitle') : t('bookmarks.createListTitle')}
        label={t('bookmarks.listName')}
        initial={dialog?.kind === 'renameList' ? dialog.list.name : ''}
        submitLabel={dialog?.kind === 'renameList' ? t('bookmarks.save') : t('bookmarks.create')}
        onSubmit={(name) => {
          if (dialog?.kind === 'renameList') void act(() => bookmarksApi.renameList(dialog.list.id, name));
          else
            void act(async () => {
              const created = await bookmarksApi.createList(name);
              navigate(`/files/lists/${encodeURIComponent(created.id)}`);
            });
        }}
      />
      <AddByLinkDialog
        open={dialog?.kind === 'addByLink'}
        onClose={() => setDialog(null)}
        onAdded={() => {
          setDialog(null);
          reload();
        }}
        bookmarkListId={listId ?? null}
        viewerEmail={user.email ?? null}
      />
      <PasswordDialog open={opener.asksPassword} busy={false} name={opener.opening?.description ?? ''} onClose={opener.cancel} onSubmit={opener.submit} />
    </Container>
  );
};
