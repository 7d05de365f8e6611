import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import FolderSharedOutlined from '@mui/icons-material/FolderSharedOutlined';
import LinkOffOutlined from '@mui/icons-material/LinkOffOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Breadcrumbs from '@mui/material/Breadcrumbs';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMachine } from '@xstate/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { fromPromise } from 'xstate';
import { toApiError, type NormalisedError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatDateTime, localeTag, translateError } from '../../components/i18nHelpers';
import { useSession } from '../../session/store';
import { AddBookmarkButton } from '../bookmarks/AddBookmarkButton';
import { BrandMark } from '../branding/TeamBrand';
import { SizeExceededDialog } from '../files/dialogs';
import { startBrowserDownload } from '../files/download';
import type { Item } from '../files/files.api';
import { isFile, isFolder } from '../files/labels';
import { FileTable } from '../files/FileTable';
import { exceedsDownloadLimit, formatBytes, previewKind, totalSize } from '../files/format';
import { PreviewDialog } from '../files/PreviewDialog';
import type { Page } from './sharing.api';
import type { ShareEntry, ShareKind, ShareSummary } from './sharing.types';
import {
  credentialNeeds,
  isCredentialRefusal,
  isLoginRefusal,
  shareAccessMachine,
  type ListInput,
  type LocateInput,
  type SummaryInput,
} from './share-access.machine';
import { locateEntry, shareLocationPath, type LocatedEntry } from './share-location';
import { NeedsUnlockerDialog, ShareAccessDialog } from './ShareAccessDialogs';
import { downloadPlan } from './share-download';
import { senderLabel } from './share-sender';
import { shareLinkApi } from './share-link.api';

type EntryItem = Item & { e2eeEnabled?: boolean };
const toItem = (entry: ShareEntry): EntryItem => ({ ...entry, storageId: entry.storageId ?? '' });

/** The link refused for good: expired, revoked, unknown, or the visitor blocked. */
const Refused = ({ error }: { error: NormalisedError }) => {
  const { t, i18n } = useTranslation();
  return (
    <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }} data-testid="share-refused" data-error-code={error.code}>
      <LinkOffOutlined color="action" sx={{ fontSize: 56 }} />
      <Typography variant="h6" component="h1" sx={{ mt: 1 }}>
        {translateError(t, i18n.language, error)}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        {t('sharing.page.refusedHint')}
      </Typography>
    </Paper>
  );
};

/**
 * The page a share link opens (/shares/:linkId, /private-share/:linkId; also a signed-in recipient's
 * shares_shared/:id): the share's summary, the password / e-mail dialog, a sign-in redirect when the
 * share wants one, the folders with breadcrumbs, preview and download.
 */
export const SharePage = ({
  linkId,
  routeKind,
  folderId = null,
  sharedWithMe = false,
}: {
  linkId: string;
  routeKind: ShareKind;
  folderId?: string | null;
  sharedWithMe?: boolean;
}) => {
  const { t, i18n } = useTranslation();
  const tag = localeTag(i18n.language);
  const location = useLocation();
  const { user } = useSession();
  const machine = useMemo(
    () =>
      shareAccessMachine.provide({
        actors: {
          loadSummary: fromPromise<ShareSummary, SummaryInput>(({ input }) => shareLinkApi.summary(input.linkId, input.credentials)),
          listEntries: fromPromise<Page<ShareEntry>, ListInput>(({ input }) => shareLinkApi.entries(input.linkId, input.folderId, input.credentials)),
          locateEntry: fromPromise<LocatedEntry, LocateInput>(({ input }) =>
            locateEntry(input.entryId, (id) => shareLinkApi.entry(input.linkId, id, input.credentials)),
          ),
        },
      }),
    [],
  );
  const [state, send] = useMachine(machine, { input: { linkId, routeKind, viewerEmail: user?.email ?? null, folderId } });
  const { summary, entries, path, error, refusal, fieldErrors, credentials, focusId } = state.context;
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const navigate = useNavigate();
  const browsing = state.matches('browsing');
  const shownFolder = path.at(-1)?.id ?? null;
  // The folder on screen lives in the address (…/entries/<folderId>): a reload or a shared deep link
  // keeps the place, back and forward move between folders. `synced` is the folder both last agreed on.
  const synced = useRef<string | null>(folderId);
  useEffect(() => {
    if (!browsing) return;
    if (folderId !== synced.current) {
      // the address moved (back, forward, a link): the page follows it
      synced.current = folderId;
      if (folderId !== shownFolder) send({ type: 'LOCATE', folderId });
      return;
    }
    if (shownFolder !== synced.current) {
      // the visitor opened a folder: the address follows it
      synced.current = shownFolder;
      navigate({ pathname: shareLocationPath({ kind: routeKind, linkId, sharedWithMe }, shownFolder), search: location.search });
    }
  }, [browsing, folderId, shownFolder, send, navigate, routeKind, linkId, sharedWithMe, location.search]);
  // a file the address named is shown selected in its folder
  useEffect(() => {
    if (browsing && focusId && entries.some((e) => e.id === focusId)) setSelected(new Set([focusId]));
  }, [browsing, focusId, entries]);
  const [previewIndex, setPreviewIndex] = useState<number | null>(null);
  const [previewUrls, setPreviewUrls] = useState<Record<string, string>>({});
  const [sizeExceeded, setSizeExceeded] = useState<number | null>(null);
  const [unlocker, setUnlocker] = useState<string | null>(null);
  const [working, setWorking] = useState(false);

  const items = useMemo(() => entries.map(toItem), [entries]);
  // every file opens in the preview: one it cannot show says so there and offers its download
  const previewable = useMemo(() => items.filter((i) => isFile(i)), [items]);
  const chosen = items.filter((i) => selected.has(i.id));
  const downloadable = summary?.downloadable !== false;

  if (state.matches('loginRequired')) {
    return <Navigate to={`/signin?${new URLSearchParams({ redirect: location.pathname + location.search }).toString()}`} replace />;
  }

  const failed = (raw: unknown) => {
    const e = toApiError(raw).toJSON();
    if (isCredentialRefusal(e) || isLoginRefusal(e)) send({ type: 'REFUSED', error: e });
    else send({ type: 'FAILED', error: e });
  };

  /**
   * A lone file leaves as itself (also a share that holds just one file, taken whole), anything
   * else as one zip: the share's own for all it holds, else of the entries chosen.
   */
  const download = (what: EntryItem[], everything = false) => {
    if (!downloadable) {
      send({
        type: 'FAILED',
        error: { code: 'SHARE_VIEW_ONLY', message: 'This share is view-only: its files can be previewed but not downloaded', data: null },
      });
      return;
    }
    if (exceedsDownloadLimit(what)) {
      setSizeExceeded(totalSize(what));
      return;
    }
    const locked = what.find((i) => i.e2eeEnabled);
    if (locked) {
      setUnlocker(locked.name);
      return;
    }
    const plan = downloadPlan(what, { folderName: path.at(-1)?.name ?? null, shareTitle: summary?.title ?? '' });
    if (plan.kind === 'none') return;
    setWorking(true);
    (plan.kind === 'file'
      ? shareLinkApi.downloadUrl(linkId, plan.id, credentials)
      : shareLinkApi.archiveUrl(linkId, everything ? undefined : plan.itemIds, credentials, plan.archiveName)
    )
      .then((url) => startBrowserDownload(url, plan.kind === 'file' ? plan.name : undefined))
      .catch((raw: unknown) => {
        const e = toApiError(raw);
        // A folder's size is known to the server only: its refusal opens the same dialog.
        if (e.code === 'DOWNLOAD_SIZE_EXCEEDED') setSizeExceeded(typeof e.data?.size === 'number' ? e.data.size : 0);
        else failed(e);
      })
      .finally(() => setWorking(false));
  };

  const preview = (index: number) => {
    const item = previewable[index];
    if (!item) return;
    if ((item as EntryItem).e2eeEnabled) {
      setUnlocker(item.name);
      return;
    }
    // a file no preview can show needs no link to its bytes until it is downloaded
    if (previewUrls[item.id] || previewKind(item) === null) {
      setPreviewIndex(index);
      return;
    }
    setWorking(true);
    shareLinkApi
      .downloadUrl(linkId, item.id, credentials, { inline: true })
      .then((url) => {
        setPreviewUrls((u) => ({ ...u, [item.id]: url }));
        setPreviewIndex(index);
      })
      .catch(failed)
      .finally(() => setWorking(false));
  };

  const open = (item: Item) => {
    setSelected(new Set());
    if (isFolder(item)) {
      send({ type: 'OPEN_FOLDER', entry: entries.find((e) => e.id === item.id)! });
      return;
    }
    const at = previewable.findIndex((p) => p.id === item.id);
    if (at >= 0) preview(at);
    else download([item]);
  };

  const title = summary?.title ?? t('sharing.page.title');
  const sender = summary ? senderLabel(summary) : null;
  // a share that holds one file: "download all" is that file itself
  const lone = path.length === 0 && items.length === 1 && isFile(items[0]!);
  const loading = state.matches('summary') || state.matches('listing') || state.matches('decide');

  return (
    <Container maxWidth="lg" sx={{ py: 3 }} data-testid="share-page" data-state={String(state.value)}>
      {sharedWithMe && (
        <Link
          component={RouterLink}
          to="/shares_shared"
          underline="hover"
          variant="body2"
          sx={{ display: 'inline-block', mb: 1 }}
          data-testid="back-to-shared-with-me"
        >
          {t('sharing.shared.back')}
        </Link>
      )}
      {refusal ? (
        <Refused error={refusal} />
      ) : (
        <>
          {summary?.branding && (
            <Box component="header" sx={{ display: 'flex', mb: 2, minWidth: 0 }} data-testid="share-header">
              <BrandMark companyName={summary.branding.companyName} logoUrl={summary.branding.logoUrl} testId="share-team-brand" nameOnPhone divided={false} />
            </Box>
          )}
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1, flexWrap: 'wrap' }}>
            <FolderSharedOutlined color="primary" />
            <Typography variant="h5" component="h1" sx={{ flex: 1 }} data-testid="share-title">
              {title}
            </Typography>
            {summary && <Chip size="small" label={t(`sharing.kind.${summary.kind}`)} />}
            {summary && !summary.downloadable && <Chip size="small" color="warning" label={t('sharing.page.viewOnly')} data-testid="share-view-only" />}
            {/* once let in (a signed-in visitor): keep the share among the bookmarks */}
            {summary && (state.matches('browsing') || state.matches('listing')) && <AddBookmarkButton linkId={linkId} />}
          </Stack>
          {summary?.description && (
            <Typography color="text.secondary" sx={{ mb: 1, whiteSpace: 'pre-wrap' }} data-testid="share-description">
              {summary.description}
            </Typography>
          )}
          {summary && (
            <Typography variant="body2" color="text.secondary" sx={{ mb: summary.message ? 1 : 2, overflowWrap: 'anywhere' }} data-testid="share-facts">
              {[
                sender ? t('sharing.page.sharedBy', { name: sender }) : null,
                typeof summary.totalSize === 'number' ? formatBytes(summary.totalSize, tag) : null,
                summary.expiresAt ? t('sharing.page.expires', { date: formatDateTime(summary.expiresAt, i18n.language) }) : t('sharing.page.noExpiry'),
              ]
                .filter(Boolean)
                .join(' · ')}
            </Typography>
          )}
          {summary?.message && (
            <Paper
              variant="outlined"
              component="figure"
              sx={{ m: 0, mb: 2, px: 2, py: 1, borderLeft: 4, borderLeftColor: 'primary.main' }}
              data-testid="share-message"
            >
              <Typography variant="caption" color="text.secondary" component="figcaption">
                {t('sharing.page.message')}
              </Typography>
              <Typography component="blockquote" sx={{ m: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {summary.message}
              </Typography>
            </Paper>
          )}

          {state.matches('browsing') || path.length > 0 ? (
            <Breadcrumbs aria-label={t('files.breadcrumbs')} sx={{ mb: 1 }} data-testid="share-breadcrumbs">
              {path.length > 0 ? (
                <Link component="button" type="button" underline="hover" onClick={() => send({ type: 'GO_TO', depth: 0 })}>
                  {title}
                </Link>
              ) : (
                <Typography color="text.primary">{title}</Typography>
              )}
              {path.map((p, i) =>
                i === path.length - 1 ? (
                  <Typography key={p.id} color="text.primary">
                    {p.name}
                  </Typography>
                ) : (
                  <Link key={p.id} component="button" type="button" underline="hover" onClick={() => send({ type: 'GO_TO', depth: i + 1 })}>
                    {p.name}
                  </Link>
                ),
              )}
            </Breadcrumbs>
          ) : null}

          {chosen.length === 0 && downloadable && state.matches('browsing') && items.length > 0 && (
            <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 1 }}>
              <Button
                size="small"
                startIcon={<DownloadOutlined />}
                onClick={() => download(items, path.length === 0)}
                disabled={working}
                data-testid="share-download-all"
              >
                {lone ? t('files.actions.download') : t('sharing.page.downloadAll')}
              </Button>
            </Box>
          )}
          {chosen.length > 0 && downloadable && (
            <Paper variant="outlined" sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 2, py: 1, mb: 1 }} data-testid="share-selection-bar">
              <Typography variant="body2" sx={{ flex: 1 }}>
                {t('files.selected', { count: chosen.length })}
              </Typography>
              <Button size="small" startIcon={<DownloadOutlined />} onClick={() => download(chosen)} disabled={working} data-testid="share-download">
                {t('files.actions.download')}
              </Button>
            </Paper>
          )}
          {(loading || working) && <LinearProgress aria-label={t('common.loading')} sx={{ mb: 1 }} />}
          <ErrorAlert error={error} testId="share-error" />

          {state.matches('browsing') && (
            <Paper variant="outlined">
              {items.length === 0 ? (
                <Box sx={{ p: 6, textAlign: 'center', color: 'text.secondary' }} data-testid="share-empty">
                  <Typography>{t('files.empty')}</Typography>
                </Box>
              ) : (
                <FileTable items={items} selected={selected} onSelect={downloadable ? setSelected : () => undefined} onOpen={open} testId="share-table" />
              )}
            </Paper>
          )}
          {state.matches('credentials') && (
            <Alert severity="info" data-testid="share-locked">
              {t('sharing.page.locked')}
            </Alert>
          )}
        </>
      )}

      <ShareAccessDialog
        open={state.matches('credentials') || (state.matches('summary') && Boolean(credentials.password || credentials.email))}
        title={title}
        needs={credentialNeeds(state.context)}
        initialEmail={credentials.email ?? user?.email ?? ''}
        serverErrors={fieldErrors}
        busy={loading}
        onSubmit={(c) => send({ type: 'SUBMIT', credentials: c })}
      />
      <SizeExceededDialog open={sizeExceeded !== null} total={sizeExceeded ?? 0} onClose={() => setSizeExceeded(null)} />
      <NeedsUnlockerDialog open={unlocker !== null} name={unlocker ?? ''} onClose={() => setUnlocker(null)} />
      <PreviewDialog
        userId=""
        items={previewable}
        index={previewIndex}
        urlOf={(item) => previewUrls[item.id] ?? ''}
        onIndex={preview}
        onClose={() => setPreviewIndex(null)}
        onDownload={(item) => download([item as EntryItem])}
        downloadable={downloadable}
      />
    </Container>
  );
};
