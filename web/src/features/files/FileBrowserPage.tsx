import AddToPhotosOutlined from '@mui/icons-material/AddToPhotosOutlined';
import BookmarksOutlined from '@mui/icons-material/BookmarksOutlined';
import CreateNewFolderOutlined from '@mui/icons-material/CreateNewFolderOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import DriveFolderUploadOutlined from '@mui/icons-material/DriveFolderUploadOutlined';
import FolderSharedOutlined from '@mui/icons-material/FolderSharedOutlined';
import MoveToInboxOutlined from '@mui/icons-material/MoveToInboxOutlined';
import ShareOutlined from '@mui/icons-material/ShareOutlined';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Breadcrumbs from '@mui/material/Breadcrumbs';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, Navigate, useNavigate, useParams } from 'react-router';
import { toApiError, type NormalisedError } from '../../api/errors';
import { SearchBox } from '../../components/SearchBox';
import { ErrorAlert } from '../../components/ErrorAlert';
import { localeTag } from '../../components/i18nHelpers';
import { useLoad } from '../../components/useLoad';
import { useSession } from '../../session/store';
import { ShareDialog } from '../sharing/ShareDialog';
import { UploadCartDialog } from '../cart/UploadCartDialog';
import { DetailsPanel } from './DetailsPanel';
import { useLockDialog } from '../file-lock/LockDialog';
import { NameDialog, QuotaLimitDialog, SizeExceededDialog, useSkip2faDialog } from './dialogs';
import { downloadArchive, downloadFile } from './download';
import { fromFileList, readDroppedEntries, toNewUploads, type EntryLike } from './drop';
import { FILES_PAGE_SIZE, filesApi, isFile, isFolder, type Item } from './files.api';
import { FileTable, type Sorting } from './FileTable';
import { exceedsDownloadLimit, formatBytes, totalSize } from './format';
import { MoveCopyDialog } from './MoveCopyDialog';
import { PermissionsDialog } from './PermissionsDialog';
import { PreviewDialog } from './PreviewDialog';
import { SelectionBar } from './SelectionBar';
import { StorageNotFound } from './StorageNotFound';
import { UploadPanel } from './UploadPanel';
import type { FileHandleLike } from './upload-queue.machine';
import { summarize } from './upload-queue.machine';
import { addUploads, droppedFileHandles, uploadQueue } from './uploader';
import { useFileFlows } from './useFileFlows';
import { useTeamStorage } from './useTeamStorage';

export const QUOTA_ERROR = 'INSUFFICIENT_SPACE';
const DOWNLOAD_SIZE_EXCEEDED = 'DOWNLOAD_SIZE_EXCEEDED';
const DEFAULT_SORT: Sorting = { sortBy: 'name', sortOrder: 'ASC' };

export const useStorages = (userId: string | undefined) => {
  const { data, error, reload } = useLoad(userId ? () => filesApi.storages(userId) : null, [userId]);
  return { storages: data ?? null, error, reload };
};

/** The browser's drop gives entries (whole folders included); older ones only files. */
const droppedEntries = (event: DragEvent): EntryLike[] | null => {
  const items = [...event.dataTransfer.items];
  const entries = items.map((i) => (i.kind === 'file' ? (i.webkitGetAsEntry?.() as EntryLike | null) : null)).filter((e): e is EntryLike => e !== null);
  return entries.length ? entries : null;
};

/**
 * Another route that opens one storage in this browser (a CloudLocker's at files/cloudlocker/:driveId):
 * the storage it resolved, and the path its folders are opened under.
 */
export interface StorageRoute {
  storageId: string;
  basePath: string;
  /** What the root of the storage is called in the breadcrumbs. */
  name?: string;
}

/** The file browser at files/storage/:storageId?/:id? (spec §2), or at a route that names its storage. */
export const FileBrowserPage = ({ route }: { route?: StorageRoute } = {}) => {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSession();
  const userId = user?.id;
  const params = useParams();
  const storageId = route?.storageId ?? params.storageId;
  const folderId = params.id ?? null;
  const { storages, error: storagesError, reload: reloadStorages } = useStorages(userId);
  const team = useTeamStorage(userId);
  const storage = storages?.find((s) => s.id === storageId) ?? team.teamStorages.find((s) => s.id === storageId);

  const [sorting, setSorting] = useState<Sorting>(DEFAULT_SORT);
  const skip2faDialog = useSkip2faDialog();
  const lockDialog = useLockDialog(userId ?? null);
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  const [dragging, setDragging] = useState(false);
  const [sizeExceeded, setSizeExceeded] = useState<number | null>(null);
  const [cartOpen, setCartOpen] = useState(false);
  const [quotaOpen, setQuotaOpen] = useState(false);
  const [details, setDetails] = useState<Item | null>(null);
  const [previewIndex, setPreviewIndex] = useState<number | null>(null);
  const [archiving, setArchiving] = useState(false);
  const [downloadError, setDownloadError] = useState<NormalisedError | null>(null);
  const [sharing, setSharing] = useState<Item[] | null>(null);
  const [permissionsOf, setPermissionsOf] = useState<Item | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    setPage(1);
    setSelected(new Set());
    setSearch('');
    setSearchText('');
  }, [storageId, folderId]);

  const listed = useLoad(
    userId && storage
      ? () => (search ? filesApi.search(userId, storage.id, search, { page, ...sorting }) : filesApi.list(userId, storage.id, folderId, { page, ...sorting }))
      : null,
    [userId, storage, folderId, page, sorting, search],
  );
  const listing = listed.data ?? null;
  const { reload } = listed;
  const opened = useLoad(
    userId && storage && folderId
      ? () =>
          Promise.all([filesApi.folder(userId, storage.id, folderId), filesApi.parents(userId, storage.id, folderId).catch(() => [])]).then(
            ([folder, chain]) => ({
              current: folder,
              parents: chain.filter((p) => p.id !== folder.id),
            }),
          )
      : null,
    [userId, storage, folderId],
  );
  const parents = (folderId && opened.data?.parents) || [];
  const current = (folderId && opened.data?.current) || null;
  const listError = listed.error ?? opened.error;
  const { trash, sendTrash, moveCopy, sendMoveCopy, naming, sendNaming } = useFileFlows({
    confirmSkip2fa: skip2faDialog.confirm,
    clearSelection: () => setSelected(new Set()),
    reload,
    reloadStorages,
    onUndo: () => setDownloadError(null),
  });
  const working = trash.matches('trashing') ? 'trash' : trash.matches('restoring') ? 'restore' : archiving ? 'archive' : null;
  const actionError = trash.context.error ?? downloadError;

  // A finished upload into the folder on screen shows up in the list; a quota refusal opens the dialog.
  useEffect(() => {
    const saved = uploadQueue.on('saved', (e) => {
      if (e.target.storageId === storageId && (e.target.folderId ?? null) === folderId) {
        reload();
        reloadStorages();
      }
    });
    let quotaSeen = new Set<string>();
    let unfinished = summarize(uploadQueue.getSnapshot().context.items).unfinished;
    const watch = uploadQueue.subscribe((snap) => {
      const refused = snap.context.items.filter((i) => i.status === 'failed' && i.error?.code === QUOTA_ERROR);
      if (refused.some((i) => !quotaSeen.has(i.id))) setQuotaOpen(true);
      quotaSeen = new Set(refused.map((i) => i.id));
      // Folders a dropped tree created show up even when none of its files could be saved.
      const now = summarize(snap.context.items).unfinished;
      if (unfinished > 0 && now === 0) reload();
      unfinished = now;
    });
    return () => {
      saved.unsubscribe();
      watch.unsubscribe();
    };
  }, [storageId, folderId, reload, reloadStorages]);

  const items = useMemo(() => listing?.data ?? [], [listing]);
  const chosen = items.filter((i) => selected.has(i.id));
  // every file opens in the preview: one it cannot show says so there and offers its download
  const previewable = useMemo(() => items.filter((i) => isFile(i)), [items]);

  if (!user || !userId) return null;
  if (storagesError) return <ErrorAlert error={storagesError} />;
  // an address of a team storage waits for the team's storages before it is called not found
  if (!storages || (storageId && !storage && !team.teamStoragesLoaded)) return <LinearProgress aria-label={t('common.loading')} />;
  if (!storage) {
    if (storageId) return <StorageNotFound />;
    const first = storages.find((s) => s.type === 'online') ?? storages[0];
    if (first) return <Navigate to={`/files/storage/${encodeURIComponent(first.id)}`} replace />;
    return (
      <Container sx={{ py: 4 }}>
        <Alert severity="info">{t('files.noStorage')}</Alert>
      </Container>
    );
  }

  const target = { userId, storageId: storage.id, folderId };
  const enqueue = (dropped: Parameters<typeof toNewUploads>[0], handles?: ReadonlyMap<string, FileHandleLike>) => {
    if (dropped.length)
      void addUploads(
        target,
        toNewUploads(dropped).map((u) => (handles && !u.relativeDir ? { ...u, handle: handles.get(u.name) ?? null } : u)),
      );
  };
  const basePath = route?.basePath ?? `/files/storage/${encodeURIComponent(storage.id)}`;
  const openFolder = (id: string | null) => void navigate(id ? `${basePath}/${encodeURIComponent(id)}` : basePath);

  /** A search result's folder: the search ends there (also when it is the folder on screen). */
  const openResultFolder = (id: string | null) => {
    setSearch('');
    setSearchText('');
    openFolder(id);
  };

  const open = async (item: Item) => {
    // a locked item (or one in a locked folder) asks for a verification code first
    if (!(await lockDialog.ensureOpen(item))) return;
    if (isFolder(item)) return openFolder(item.id);
    const at = previewable.findIndex((p) => p.id === item.id);
    if (at >= 0) setPreviewIndex(at);
    else download([item]);
  };

  const download = async (what: Item[]) => {
    if (what.length === 1 && !(await lockDialog.ensureOpen(what[0]!))) return;
    if (exceedsDownloadLimit(what)) {
      setSizeExceeded(totalSize(what));
      return;
    }
    setDownloadError(null);
    sendTrash({ type: 'DISMISS' });
    if (what.length === 1 && isFile(what[0]!)) {
      downloadFile(userId, what[0]!);
      return;
    }
    setArchiving(true);
    downloadArchive(userId, what, undefined, skip2faDialog.confirm)
      .catch((e: unknown) => {
        const error = toApiError(e);
        // A folder's size is known to the server only: its refusal opens the same dialog.
        if (error.code === DOWNLOAD_SIZE_EXCEEDED) setSizeExceeded(typeof error.data?.size === 'number' ? error.data.size : 0);
        else setDownloadError(error.toJSON());
      })
      .finally(() => setArchiving(false));
  };

  const moveToTrash = (what: Item[]) => {
    setDownloadError(null);
    sendTrash({ type: 'TRASH', userId, items: what });
  };

  const onDrop = async (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const entries = droppedEntries(event);
    // Handles are only given during the drop event itself: asked for first, awaited after.
    const handles = droppedFileHandles(event.dataTransfer.items);
    const dropped = entries ? await readDroppedEntries(entries) : fromFileList(event.dataTransfer.files);
    enqueue(dropped, await handles);
  };

  const tag = localeTag(i18n.language);
  const pages = Math.max(1, Math.ceil((listing?.totalCount ?? 0) / FILES_PAGE_SIZE));
  const storageName = route?.name ?? (storage.isTeamFolder ? t('files.team.storageName') : storage.name || t('files.myFiles'));
  const teamStorage = team.teamStorages[0];
  const managesPermissions = team.managesTeamOf(storage);
  const renaming = naming.context.naming?.mode === 'rename' ? naming.context.naming : null;
  const nameKind = renaming && isFile(renaming.item) ? 'file' : 'folder';

  return (
    <Container maxWidth="lg" sx={{ py: 3 }} data-testid="file-browser">
      <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1, mb: 2 }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
          {t('files.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" data-testid="storage-usage">
          {t('files.usage', { used: formatBytes(storage.sizeUsed, tag), total: formatBytes(storage.sizeTotal, tag) })}
        </Typography>
        <Button component={RouterLink} to="/files/shares" startIcon={<ShareOutlined />} data-testid="open-shares">
          {t('sharing.list.title')}
        </Button>
        <Button component={RouterLink} to="/files/secure-fetch" startIcon={<MoveToInboxOutlined />} data-testid="open-secure-fetch">
          {t('secureFetch.title')}
        </Button>
        {teamStorage &&
          (storage.isTeamFolder ? (
            <Button component={RouterLink} to="/files/storage" startIcon={<FolderSharedOutlined />} data-testid="open-my-files">
              {t('files.myFiles')}
            </Button>
          ) : (
            <Button
              component={RouterLink}
              to={`/files/storage/${encodeURIComponent(teamStorage.id)}`}
              startIcon={<FolderSharedOutlined />}
              data-testid="open-team-files"
            >
              {t('files.team.storageName')}
            </Button>
          ))}
        {storage.type === 'online' && !storage.isTeamFolder && (
          <Button startIcon={<AddToPhotosOutlined />} onClick={() => setCartOpen(true)} data-testid="open-upload-cart">
            {t('cart.open')}
          </Button>
        )}
        <Button component={RouterLink} to="/files/bookmarks" startIcon={<BookmarksOutlined />} data-testid="open-bookmarks">
          {t('bookmarks.title')}
        </Button>
        {!storage.isTeamFolder && (
          <Button component={RouterLink} to={`/files/trash/${encodeURIComponent(storage.id)}`} startIcon={<DeleteOutlined />} data-testid="open-trash">
            {t('files.trash.title')}
          </Button>
        )}
      </Box>

      <Breadcrumbs aria-label={t('files.breadcrumbs')} sx={{ mb: 1 }} data-testid="breadcrumbs">
        {folderId ? (
          <Link component="button" type="button" underline="hover" onClick={() => openFolder(null)}>
            {storageName}
          </Link>
        ) : (
          <Typography color="text.primary">{storageName}</Typography>
        )}
        {parents.map((p) => (
          <Link key={p.id} component="button" type="button" underline="hover" onClick={() => openFolder(p.id)}>
            {p.name}
          </Link>
        ))}
        {current && <Typography color="text.primary">{current.name}</Typography>}
      </Breadcrumbs>

      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', mb: 1 }}>
        <Button variant="contained" startIcon={<UploadFileOutlined />} onClick={() => fileInput.current?.click()} data-testid="upload-files">
          {t('files.actions.uploadFiles')}
        </Button>
        <Button variant="outlined" startIcon={<DriveFolderUploadOutlined />} onClick={() => folderInput.current?.click()} data-testid="upload-folder">
          {t('files.actions.uploadFolder')}
        </Button>
        <Button startIcon={<CreateNewFolderOutlined />} onClick={() => sendNaming({ type: 'CREATE_FOLDER' })} data-testid="create-folder">
          {t('files.actions.createFolder')}
        </Button>
        <Box sx={{ flex: 1 }} />
        <SearchBox
          value={searchText}
          onChange={setSearchText}
          onSearch={(query) => {
            setPage(1);
            setSearch(query);
          }}
          onClear={() => setSearch('')}
          label={t('files.search.placeholder')}
          testId="search-input"
        />
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          aria-label={t('files.actions.uploadFiles')}
          data-testid="file-input"
          onChange={(e) => {
            enqueue(fromFileList(e.target.files ?? []));
            e.target.value = '';
          }}
        />
        <input
          ref={(el) => {
            folderInput.current = el;
            el?.setAttribute('webkitdirectory', '');
          }}
          type="file"
          multiple
          hidden
          aria-label={t('files.actions.uploadFolder')}
          data-testid="folder-input"
          onChange={(e) => {
            enqueue(fromFileList(e.target.files ?? []));
            e.target.value = '';
          }}
        />
      </Box>

      {chosen.length > 0 && (
        <SelectionBar
          chosen={chosen}
          working={working !== null}
          onDownload={() => download(chosen)}
          onRename={(item) => sendNaming({ type: 'RENAME', item })}
          onDetails={setDetails}
          onShare={() => setSharing(chosen)}
          onMoveCopy={(mode) => sendMoveCopy({ type: 'OPEN', mode })}
          onTrash={() => moveToTrash(chosen)}
          onPermissions={managesPermissions ? setPermissionsOf : undefined}
        />
      )}

      {working && (
        <Box sx={{ mb: 1 }} data-testid="working">
          <Typography variant="caption">{t(`files.working.${working}`)}</Typography>
          <LinearProgress aria-label={t(`files.working.${working}`)} />
        </Box>
      )}
      <ErrorAlert error={actionError} testId="action-error" />
      <ErrorAlert error={listError} testId="list-error" />

      <Paper
        variant="outlined"
        data-testid="drop-zone"
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => void onDrop(e)}
        sx={{ minHeight: 240, position: 'relative', outline: dragging ? '2px dashed' : 'none', outlineColor: 'primary.main' }}
      >
        {search && (
          <Alert severity="info" sx={{ m: 1 }} data-testid="search-results">
            {t('files.search.results', { count: listing?.totalCount ?? 0, query: search })}
          </Alert>
        )}
        {!listing && !listError && <LinearProgress aria-label={t('common.loading')} />}
        {listing && items.length === 0 && (
          <Box sx={{ p: 6, textAlign: 'center', color: 'text.secondary' }} data-testid="empty-folder">
            <Typography>{search ? t('files.search.none') : t('files.empty')}</Typography>
            {!search && <Typography variant="body2">{t('files.dropHint')}</Typography>}
          </Box>
        )}
        {items.length > 0 && (
          <FileTable
            items={items}
            selected={selected}
            onSelect={setSelected}
            sorting={sorting}
            onSort={(s) => {
              setSorting(s);
              setPage(1);
            }}
            onOpen={open}
            location={search ? { rootName: storageName, onOpen: openResultFolder } : undefined}
          />
        )}
        {dragging && (
          <Box sx={{ position: 'absolute', inset: 0, bgcolor: 'action.hover', display: 'grid', placeItems: 'center', pointerEvents: 'none' }}>
            <Typography variant="h6">{t('files.dropHere')}</Typography>
          </Box>
        )}
      </Paper>
      {pages > 1 && (
        <Box sx={{ display: 'flex', justifyContent: 'center', mt: 2 }}>
          <Pagination count={pages} page={page} onChange={(_, p) => setPage(p)} data-testid="pagination" />
        </Box>
      )}

      <NameDialog
        open={naming.context.naming !== null}
        kind={nameKind}
        title={renaming ? t('files.actions.rename') : t('files.actions.createFolder')}
        submitLabel={renaming ? t('files.actions.rename') : t('files.actions.create')}
        initial={renaming ? renaming.item.name : ''}
        error={naming.context.error}
        busy={naming.matches('saving')}
        onSubmit={(name) => sendNaming({ type: 'SUBMIT', name, userId, storageId: storage.id, folderId })}
        onClose={() => sendNaming({ type: 'CLOSE' })}
      />
      <SizeExceededDialog open={sizeExceeded !== null} total={sizeExceeded ?? 0} onClose={() => setSizeExceeded(null)} />
      <QuotaLimitDialog open={quotaOpen} isOwner={storage.isOwner ?? true} onClose={() => setQuotaOpen(false)} />
      <UploadCartDialog
        open={cartOpen}
        userId={userId}
        storageId={storage.id}
        onClose={() => {
          setCartOpen(false);
          reload();
          reloadStorages();
        }}
      />
      <MoveCopyDialog
        open={moveCopy.context.open}
        mode={moveCopy.context.mode}
        userId={userId}
        storageId={storage.id}
        rootName={storageName}
        items={chosen}
        busy={moveCopy.matches('running')}
        error={moveCopy.context.error}
        onSubmit={(destinationId) => sendMoveCopy({ type: 'SUBMIT', userId, storageId: storage.id, itemIds: chosen.map((i) => i.id), destinationId })}
        onClose={() => sendMoveCopy({ type: 'CLOSE' })}
      />
      <DetailsPanel userId={userId} item={details} onClose={() => setDetails(null)} />
      <PreviewDialog
        userId={userId}
        items={previewable}
        index={previewIndex}
        onIndex={setPreviewIndex}
        onClose={() => setPreviewIndex(null)}
        onDownload={(item) => download([item])}
      />
      <ShareDialog
        open={sharing !== null}
        itemIds={(sharing ?? []).map((i) => i.id)}
        title={sharing?.length === 1 ? sharing[0]!.name : ''}
        ownEmail={user.email}
        onClose={() => setSharing(null)}
      />
      {team.teamId && managesPermissions && (
        <PermissionsDialog userId={userId} teamId={team.teamId} item={permissionsOf} onClose={() => setPermissionsOf(null)} />
      )}
      <UploadPanel userId={userId} />
      {skip2faDialog.dialog}
      {lockDialog.dialog}
    </Container>
  );
};
