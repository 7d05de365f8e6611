import Breadcrumbs from '@mui/material/Breadcrumbs';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toApiError, type NormalisedError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { startBrowserDownload } from '../files/download';
import type { Item } from '../files/files.api';
import { FileTable } from '../files/FileTable';
import { sharingApi } from './sharing.api';
import type { ShareEntry } from './sharing.types';

const toItem = (entry: ShareEntry): Item => ({ ...entry, storageId: entry.storageId ?? '' });

/** What the owner shared, as visitors see it: the shared items at the root, folders opened in place, files downloaded. */
export const ShareContents = ({ shareId, title }: { shareId: string; title: string }) => {
  const { t } = useTranslation();
  const [path, setPath] = useState<ShareEntry[]>([]);
  const [entries, setEntries] = useState<ShareEntry[] | null>(null);
  const [error, setError] = useState<NormalisedError | null>(null);
  const folderId = path.at(-1)?.id ?? null;

  useEffect(() => {
    let live = true;
    setEntries(null);
    setError(null);
    sharingApi
      .entries(shareId, folderId)
      .then((p) => live && setEntries(p.data))
      .catch((e: unknown) => live && setError(toApiError(e).toJSON()));
    return () => {
      live = false;
    };
  }, [shareId, folderId]);

  const items = useMemo(() => (entries ?? []).map(toItem), [entries]);
  const open = (item: Item) => {
    const entry = entries?.find((e) => e.id === item.id);
    if (!entry) return;
    if (entry.label === 'folder') {
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
      <ErrorAlert error={error} testId="share-contents-error" />
      <Paper variant="outlined" data-testid="share-contents">
        {entries === null && !error ? <LinearProgress aria-label={t('common.loading')} /> : <FileTable items={items} selected={new Set()} onSelect={() => undefined} onOpen={open} testId="share-contents-table" />}
      </Paper>
    </>
  );
};
