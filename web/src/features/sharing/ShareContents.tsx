import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import Box from '@mui/material/Box';
import Breadcrumbs from '@mui/material/Breadcrumbs';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toApiError, type NormalisedError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useLoad } from '../../components/useLoad';
import { SizeExceededDialog } from '../files/dialogs';
import { startBrowserDownload } from '../files/download';
import type { Item } from '../files/files.api';
import { isFolder } from '../files/labels';
import { FileTable } from '../files/FileTable';
import { exceedsDownloadLimit, totalSize } from '../files/format';
import { downloadPlan } from './share-download';
import { sharingApi } from './sharing.api';
import type { ShareEntry } from './sharing.types';

const toItem = (entry: ShareEntry): Item => ({ ...entry, storageId: entry.storageId ?? '' });

/** What the owner shared, as visitors see it: the shared items at the root, folders opened in place, files downloaded. */
export const ShareContents = ({ shareId, title }: { shareId: string; title: string }) => {
  const { t } = useTranslation();
  const [path, setPath] = useState<ShareEntry[]>([]);
  const [actionError, setError] = useState<NormalisedError | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [working, setWorking] = useState(false);
  const [sizeExceeded, setSizeExceeded] = useState<number | null>(null);
  const folderId = path.at(-1)?.id ?? null;

  // another folder opened: nothing in it chosen yet, and no error of the last one
  useEffect(() => {
    setSelected(new Set());
    setError(null);
  }, [shareId, folderId]);
  const listed = useLoad(() => sharingApi.entries(shareId, folderId).then((p) => p.data), [shareId, folderId], { reset: true });
  const entries = listed.data ?? null;
  const error = listed.error ?? actionError;

  const items = useMemo(() => (entries ?? []).map(toItem), [entries]);
  const chosen = items.filter((i) => selected.has(i.id));

  /** The selection: a lone file straight, else one zip through the share's archive (10 GB at most). */
  const downloadChosen = () => {
    const plan = downloadPlan(chosen, { folderName: path.at(-1)?.name ?? null, shareTitle: title });
    if (plan.kind === 'none') return;
    if (exceedsDownloadLimit(chosen)) {
      setSizeExceeded(totalSize(chosen));
      return;
    }
    setWorking(true);
    setError(null);
    (plan.kind === 'file' ? sharingApi.entryDownloadUrl(shareId, plan.id) : sharingApi.archiveUrl(shareId, plan.itemIds, plan.archiveName))
      .then((url) => startBrowserDownload(url, plan.kind === 'file' ? plan.name : undefined))
      .catch((e: unknown) => {
        const failure = toApiError(e);
        // a folder's size is known to the server only: its refusal opens the same dialog
        if (failure.code === 'DOWNLOAD_SIZE_EXCEEDED') setSizeExceeded(typeof failure.data?.size === 'number' ? failure.data.size : 0);
        else setError(failure.toJSON());
      })
      .finally(() => setWorking(false));
  };
  const open = (item: Item) => {
    const entry = entries?.find((e) => e.id === item.id);
    if (!entry) return;
    if (isFolder(entry)) {
      setPath((p) => [...p, entry]);
      return;
    }
    sharingApi
      .entryDownloadUrl(shareId, entry.id)
      .then((url) => startBrowserDownload(url, entry.name))
      .catch((e: unknown) => setError(toApiError(e).toJSON()));
  };

  return (
    <>
      <Typography variant="h6" component="h2" sx={{ mt: 3 }}>
        {t('sharing.details.contents')}
      </Typography>
      <Breadcrumbs aria-label={t('files.breadcrumbs')} sx={{ my: 1 }} data-testid="share-contents-breadcrumbs">
        {path.length > 0 ? (
          <Link component="button" type="button" underline="hover" onClick={() => setPath([])}>
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
            <Link key={p.id} component="button" type="button" underline="hover" onClick={() => setPath(path.slice(0, i + 1))}>
              {p.name}
            </Link>
          ),
        )}
      </Breadcrumbs>
      {chosen.length > 0 && (
        <Paper variant="outlined" sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 2, py: 1, mb: 1 }} data-testid="share-contents-selection">
          <Typography variant="body2" sx={{ flex: 1 }}>
            {t('files.selected', { count: chosen.length })}
          </Typography>
          <Button size="small" startIcon={<DownloadOutlined />} onClick={downloadChosen} disabled={working} data-testid="share-contents-download">
            {t('files.actions.download')}
          </Button>
        </Paper>
      )}
      {working && (
        <Box sx={{ mb: 1 }}>
          <LinearProgress aria-label={t('common.loading')} />
        </Box>
      )}
      <ErrorAlert error={error} testId="share-contents-error" />
      <Paper variant="outlined" data-testid="share-contents">
        {entries === null && !error ? (
          <LinearProgress aria-label={t('common.loading')} />
        ) : (
          <FileTable items={items} selected={selected} onSelect={setSelected} onOpen={open} testId="share-contents-table" />
        )}
      </Paper>
      <SizeExceededDialog open={sizeExceeded !== null} total={sizeExceeded ?? 0} onClose={() => setSizeExceeded(null)} />
    </>
  );
};
