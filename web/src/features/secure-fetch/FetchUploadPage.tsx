import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import CloudUploadOutlined from '@mui/icons-material/CloudUploadOutlined';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import PauseOutlined from '@mui/icons-material/PauseOutlined';
import PlayArrowOutlined from '@mui/icons-material/PlayArrowOutlined';
import ReplayOutlined from '@mui/icons-material/ReplayOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useActorRef, useMachine, useSelector } from '@xstate/react';
import { useEffect, useRef, useState, type DragEvent, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { fromPromise } from 'xstate';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatDateTime, localeTag, translateError } from '../../components/i18nHelpers';
import { fromFileList, readDroppedEntries, type DroppedFile, type EntryLike } from '../files/drop';
import { formatBytes } from '../files/format';
import { summarize, type UploadItem } from '../files/upload-queue.machine';
import { uploadIdOf } from '../files/uploader';
import { fetchUploadQueueMachine, LINK_TARGET } from './fetch-uploader';
import { fetchUploadMachine, receiptVerdict, type FinishedFile } from './fetch-upload.machine';
import { hashFile, type FileHashes } from './hashing';
import { MetadataForm } from './MetadataForm';
import { saveJson } from './save-json';
import type { LocalFile } from './receipt';
import { publishedKeys, receiptSignatureValid, SIGNING_KEYS_URL } from './receipt-signature';
import { secureFetchApi, type LinkSummary } from './secure-fetch.api';
import { splitLinkUploads, TOO_LARGE, type RefusedFile } from './upload-rules';

const pathOf = (item: Pick<UploadItem, 'relativeDir' | 'name'>) => (item.relativeDir ? `${item.relativeDir}/${item.name}` : item.name);

const droppedEntries = (event: DragEvent): EntryLike[] | null => {
  const entries = [...event.dataTransfer.items]
    .map((i) => (i.kind === 'file' ? (i.webkitGetAsEntry?.() as EntryLike | null) : null))
    .filter((e): e is EntryLike => e !== null);
  return entries.length ? entries : null;
};

const MIB = 1024 * 1024;
/** The spec states the limit in MiB (10 MiB): a whole number of MiB is shown as such. */
const limitText = (bytes: number, tag: string) => (bytes % MIB === 0 ? `${new Intl.NumberFormat(tag).format(bytes / MIB)} MiB` : formatBytes(bytes, tag));

interface HashState {
  promise: Promise<FileHashes>;
  bytes: number;
  hashes: FileHashes | null;
  failed: boolean;
}

const LinkSummaryCard = ({ link }: { link: LinkSummary }) => {
  const { t, i18n } = useTranslation();
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="fetch-link-summary">
      <Typography variant="subtitle1" component="p" data-testid="fetch-link-owner" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
        {link.ownerName ? t('secureFetch.upload.askedBy', { name: link.ownerName }) : t('secureFetch.upload.askedByOwner')}
      </Typography>
      <Typography variant="overline">{t('secureFetch.upload.noteFromOwner')}</Typography>
      <Typography variant="body1" sx={{ whiteSpace: 'pre-wrap', mb: 1 }} data-testid="fetch-link-note">
        {link.note}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
        <Chip
          size="small"
          label={link.expiresAt ? t('secureFetch.upload.expires', { date: formatDateTime(link.expiresAt, i18n.language) }) : t('secureFetch.upload.noExpiry')}
        />
        {link.maxSize !== null && (
          <Chip
            size="small"
            label={t('secureFetch.upload.maxSize', { size: limitText(link.maxSize, localeTag(i18n.language)) })}
            data-testid="fetch-link-max-size"
          />
        )}
        {link.certificated && (
          <Chip
            size="small"
            color="primary"
            data-testid="fetch-link-certificate"
            label={
              link.hashChoice?.length
                ? t('secureFetch.upload.certificatedWith', {
                    hashes: link.hashChoice.map((h) => t(`secureFetch.hashChoice.${h}`, { defaultValue: h })).join(', '),
                  })
                : t('secureFetch.upload.certificated')
            }
          />
        )}
        {link.includeMetadata && <Chip size="small" label={t('secureFetch.upload.asksMetadata')} />}
      </Stack>
    </Paper>
  );
};

type RowCommand = 'PAUSE' | 'RESUME' | 'RETRY' | 'REMOVE';

/** A row's controls: pause and resume (the upload continues from the server's offset), retry, and remove for any file. */
const RowActions = ({ item, onCommand }: { item: UploadItem; onCommand: (command: RowCommand) => void }) => {
  const { t } = useTranslation();
  const button = (command: RowCommand, label: string, icon: ReactElement) => (
    <Tooltip title={label}>
      <IconButton size="small" aria-label={label} data-testid={`fetch-file-${command.toLowerCase()}`} onClick={() => onCommand(command)}>
        {icon}
      </IconButton>
    </Tooltip>
  );
  return (
    <Box sx={{ display: 'flex' }}>
      {item.status === 'progress' && button('PAUSE', t('files.upload.pause'), <PauseOutlined fontSize="small" />)}
      {item.status === 'paused' && button('RESUME', t('files.upload.resume'), <PlayArrowOutlined fontSize="small" />)}
      {item.status === 'failed' && item.retryable && button('RETRY', t('files.upload.retry'), <ReplayOutlined fontSize="small" />)}
      {item.status !== 'saving' && button('REMOVE', t('secureFetch.upload.remove'), <DeleteOutlined fontSize="small" />)}
    </Box>
  );
};

/** The files the page did not take when chosen, each with why (the size limit stated). */
const RefusedFiles = ({ refused, onDismiss }: { refused: RefusedFile[]; onDismiss: () => void }) => {
  const { t, i18n } = useTranslation();
  const tag = localeTag(i18n.language);
  return (
    <Alert severity="error" onClose={onDismiss} data-testid="fetch-refused">
      {t('secureFetch.upload.refusedTitle', { count: refused.length })}
      <List dense disablePadding>
        {refused.map((r) => (
          <ListItem
            key={r.name}
            disableGutters
            data-testid="fetch-refused-file"
            data-name={r.name}
            data-error-code={r.error.code}
            sx={{ overflowWrap: 'anywhere' }}
          >
            {r.error.code === TOO_LARGE && typeof r.error.data?.maxSize === 'number'
              ? t('secureFetch.upload.refusedTooLarge', { name: r.name, size: formatBytes(r.size, tag), limit: limitText(r.error.data.maxSize, tag) })
              : t('secureFetch.upload.refusedOther', {
                  name: r.name,
                  reason:
                    r.error.code === 'INVALID_NAME' && typeof r.error.data?.problem === 'string'
                      ? t(`files.nameProblems.${r.error.data.problem}`)
                      : translateError(t, i18n.language, r.error),
                })}
          </ListItem>
        ))}
      </List>
    </Alert>
  );
};

const FileRow = ({ item, hash, onCommand }: { item: UploadItem; hash: HashState | undefined; onCommand: (command: RowCommand) => void }) => {
  const { t, i18n } = useTranslation();
  const percent = item.size > 0 ? Math.floor((item.bytesSent / item.size) * 100) : item.status === 'done' ? 100 : 0;
  const hashPercent = hash ? (hash.hashes ? 100 : item.size > 0 ? Math.floor((hash.bytes / item.size) * 100) : 0) : 0;
  const path = pathOf(item);
  return (
    <ListItem
      dense
      data-testid="fetch-file"
      data-status={item.status}
      data-name={path}
      divider
      secondaryAction={<RowActions item={item} onCommand={onCommand} />}
    >
      <ListItemText
        primary={
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', pr: 8 }}>
            <Typography variant="body2" noWrap sx={{ flex: 1 }} title={path}>
              {path}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {formatBytes(item.size, localeTag(i18n.language))}
            </Typography>
            <Chip
              size="small"
              variant="outlined"
              label={t(`files.upload.status.${item.status}`)}
              color={item.status === 'done' ? 'success' : item.status === 'failed' ? 'error' : 'default'}
            />
          </Box>
        }
        secondary={
          item.status === 'failed' && item.error ? (
            <Typography variant="caption" color="error" component="span" data-testid="fetch-file-error" data-error-code={item.error.code}>
              {item.error.code === 'INVALID_NAME' && typeof item.error.data?.problem === 'string'
                ? t(`files.nameProblems.${item.error.data.problem}`)
                : translateError(t, i18n.language, item.error)}
            </Typography>
          ) : (
            <Box sx={{ mt: 0.5, mr: 8 }}>
              <LinearProgress variant="determinate" value={percent} aria-label={t('secureFetch.upload.uploadProgress', { name: path })} />
              <Typography
                variant="caption"
                color={hash?.failed ? 'error' : 'text.secondary'}
                data-testid="fetch-file-hash"
                data-done={hash?.hashes ? 'true' : hash?.failed ? 'failed' : 'false'}
              >
                {hash?.hashes
                  ? t('secureFetch.upload.hashed')
                  : hash?.failed
                    ? t('secureFetch.upload.hashFailed')
                    : t('secureFetch.upload.hashing', { percent: hashPercent })}
              </Typography>
            </Box>
          )
        }
        slotProps={{ secondary: { component: 'div' } }}
      />
    </ListItem>
  );
};

/** The anonymous upload page of a Secure Fetch link, /secure-fetch(es)/:shareId (spec §2). */
export const FetchUploadPage = () => {
  const { t, i18n } = useTranslation();
  const { shareId: linkId = '' } = useParams();
  const queue = useActorRef(fetchUploadQueueMachine(linkId), { input: {} });
  const items = useSelector(queue, (s) => s.context.items);
  const [hashes, setHashes] = useState<Map<Blob, HashState>>(() => new Map());
  const hashesRef = useRef(hashes);
  hashesRef.current = hashes;
  const [dragging, setDragging] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);

  const [state, send] = useMachine(
    fetchUploadMachine.provide({
      actors: {
        loadLink: fromPromise(({ input }) => secureFetchApi.link(input.linkId)),
        submit: fromPromise(({ input }) => secureFetchApi.submit(input.linkId, input.files, input.metadata)),
        localHashes: fromPromise(async ({ input }): Promise<LocalFile[]> => {
          const byUpload = new Map(queue.getSnapshot().context.items.map((i) => [i.uploadUrl ? uploadIdOf(i.uploadUrl) : '', i]));
          return Promise.all(
            input.files.map(async (f) => {
              const item = byUpload.get(f.file.uploadId);
              const hash = item?.file ? hashesRef.current.get(item.file) : undefined;
              if (!hash) throw new Error('no local hash');
              return { name: f.file.name, size: f.file.size, hashes: await hash.promise };
            }),
          );
        }),
        receiptSignature: fromPromise(async ({ input }) => {
          // every key the server lists (current and rotated out): the receipt names the one that signed it
          const keyring = await fetch(SIGNING_KEYS_URL, { credentials: 'omit', headers: { accept: 'application/json' } });
          if (!keyring.ok) throw new Error(`signing keys: HTTP ${keyring.status}`);
          return receiptSignatureValid(input.receipt, publishedKeys(await keyring.json()));
        }),
      },
    }),
    { input: { linkId } },
  );
  const { link, unavailable, metadata, fieldErrors, error, receipt, checks, signature, refused } = state.context;
  const busy = state.matches('submitting') || state.matches('checking') || state.matches('signature');

  // The browser warns before the page is closed while files are still uploading.
  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (summarize(queue.getSnapshot().context.items).unfinished === 0) return;
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [queue]);

  const add = (dropped: DroppedFile[]) => {
    // Files dropped while the submission is on its way would not be part of it.
    if (!link || busy || dropped.length === 0) return;
    const { accepted: uploads, refused: refusedNow } = splitLinkUploads(dropped, link.maxSize);
    send({ type: 'FILES.CHOSEN', added: uploads.length, refused: refusedNow });
    if (uploads.length === 0) return;
    // Each accepted file is hashed in the worker while it uploads.
    const started = new Map(hashesRef.current);
    for (const upload of uploads) {
      const file = upload.file;
      const entry: HashState = {
        bytes: 0,
        hashes: null,
        failed: false,
        promise: hashFile(file, (bytes) => setHashes((m) => new Map(m).set(file, { ...(m.get(file) ?? entry), bytes }))),
      };
      entry.promise.then(
        (h) => setHashes((m) => new Map(m).set(file, { ...(m.get(file) ?? entry), hashes: h, bytes: file.size })),
        () => setHashes((m) => new Map(m).set(file, { ...(m.get(file) ?? entry), failed: true })),
      );
      started.set(file, entry);
    }
    setHashes(started);
    queue.send({ type: 'ADD', files: uploads, target: LINK_TARGET });
  };

  const onDrop = async (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const entries = droppedEntries(event);
    add(entries ? await readDroppedEntries(entries) : fromFileList(event.dataTransfer.files));
  };

  const submit = () => {
    const sum = summarize(items);
    const finished: FinishedFile[] = items
      .filter((i) => i.status === 'done' && i.uploadUrl)
      .map((i) => {
        const uploadId = uploadIdOf(i.uploadUrl!);
        return {
          displayName: pathOf(i),
          file: {
            id: uploadId,
            name: i.name,
            nodeId: uploadId,
            uploadId,
            mime: (i.file as File).type || 'application/octet-stream',
            size: i.size,
            ...(i.relativeDir ? { relpath: i.relativeDir } : {}),
            ...((i.file as File).lastModified ? { modified: new Date((i.file as File).lastModified).toISOString() } : {}),
          },
        };
      });
    send({ type: 'SUBMIT', files: finished, unfinished: sum.unfinished });
  };

  if (state.matches('loading')) {
    return (
      <Box sx={{ display: 'grid', placeItems: 'center', py: 8 }}>
        <CircularProgress aria-label={t('common.loading')} />
      </Box>
    );
  }

  if (state.matches('unavailable')) {
    return (
      <Container maxWidth="sm" sx={{ py: 6 }}>
        <Typography variant="h5" component="h1" gutterBottom>
          {t('secureFetch.upload.title')}
        </Typography>
        <ErrorAlert error={unavailable} testId="fetch-unavailable" />
      </Container>
    );
  }

  if (state.matches('sent')) {
    const verdict = receiptVerdict(checks, signature);
    return (
      <Container maxWidth="sm" sx={{ py: 6 }} data-testid="fetch-sent">
        <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
          <CheckCircleOutlined color="success" sx={{ fontSize: 48 }} />
          <Typography variant="h5" component="h1">
            {t('secureFetch.upload.sentTitle')}
          </Typography>
          <Typography>{t('secureFetch.upload.sentText', { count: state.context.files.length })}</Typography>
          <Alert
            severity={verdict === 'match' ? 'success' : verdict === 'mismatch' ? 'error' : 'warning'}
            data-testid="fetch-receipt-verdict"
            data-verdict={verdict}
            sx={{ width: '100%' }}
          >
            {t(`secureFetch.upload.receipt.${verdict}`)}
            <Typography variant="body2" data-testid="fetch-receipt-signature" data-signature={signature ?? 'unchecked'}>
              {t(`secureFetch.upload.receipt.signature.${signature ?? 'unchecked'}`)}
            </Typography>
            {checks && verdict === 'mismatch' && (
              <List dense>
                {checks
                  .filter((c) => c.status !== 'match')
                  .map((c) => (
                    <ListItem key={c.name} disableGutters>
                      <ListItemText
                        primary={c.name}
                        secondary={
                          c.status === 'differs'
                            ? t('secureFetch.upload.receipt.differs', { hashes: c.hashes.join(', ') })
                            : t('secureFetch.upload.receipt.missing')
                        }
                      />
                    </ListItem>
                  ))}
              </List>
            )}
          </Alert>
          {receipt && (
            <Button
              variant="outlined"
              startIcon={<DownloadOutlined />}
              data-testid="fetch-receipt-download"
              onClick={() => saveJson(receipt, `secure-fetch-receipt-${linkId}.json`)}
            >
              {t('secureFetch.upload.downloadReceipt')}
            </Button>
          )}
        </Stack>
      </Container>
    );
  }

  const sum = summarize(items);
  return (
    <Container maxWidth="md" sx={{ py: 4 }} data-testid="fetch-upload-page">
      <Stack spacing={3}>
        <Typography variant="h5" component="h1">
          {t('secureFetch.upload.title')}
        </Typography>
        {link && <LinkSummaryCard link={link} />}
        <Paper
          variant="outlined"
          data-testid="fetch-dropzone"
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={(e) => void onDrop(e)}
          sx={{
            p: 4,
            textAlign: 'center',
            borderStyle: 'dashed',
            borderWidth: 2,
            borderColor: dragging ? 'primary.main' : 'divider',
            bgcolor: dragging ? 'action.hover' : undefined,
          }}
        >
          <CloudUploadOutlined color="action" sx={{ fontSize: 40 }} />
          <Typography sx={{ mb: 2 }}>{t('secureFetch.upload.drop')}</Typography>
          <Stack direction="row" spacing={1} sx={{ justifyContent: 'center' }}>
            <Button variant="contained" disabled={busy} onClick={() => fileInput.current?.click()} data-testid="fetch-choose-files">
              {t('secureFetch.upload.chooseFiles')}
            </Button>
            <Button variant="outlined" disabled={busy} onClick={() => folderInput.current?.click()} data-testid="fetch-choose-folder">
              {t('secureFetch.upload.chooseFolder')}
            </Button>
          </Stack>
          <input
            ref={fileInput}
            type="file"
            multiple
            hidden
            data-testid="fetch-file-input"
            onChange={(e) => {
              add(fromFileList(e.target.files ?? []));
              e.target.value = '';
            }}
          />
          <input
            ref={folderInput}
            type="file"
            hidden
            {...({ webkitdirectory: '' } as object)}
            data-testid="fetch-folder-input"
            onChange={(e) => {
              add(fromFileList(e.target.files ?? []));
              e.target.value = '';
            }}
          />
        </Paper>
        {refused.length > 0 && <RefusedFiles refused={refused} onDismiss={() => send({ type: 'REFUSED.DISMISS' })} />}
        {items.length > 0 && (
          <Paper variant="outlined">
            <Box sx={{ p: 2 }}>
              <Typography variant="subtitle2" data-testid="fetch-overall" data-percent={sum.percent}>
                {t('secureFetch.upload.overall', { done: sum.done, total: sum.total, percent: sum.percent })}
              </Typography>
              <LinearProgress variant="determinate" value={sum.percent} sx={{ mt: 1 }} aria-label={t('secureFetch.upload.overallLabel')} />
            </Box>
            <List dense disablePadding>
              {items.map((item) => (
                <FileRow
                  key={item.id}
                  item={item}
                  hash={item.file ? hashes.get(item.file) : undefined}
                  onCommand={(command) => queue.send(command === 'REMOVE' ? { type: 'REMOVE', id: item.id } : { type: command, id: item.id })}
                />
              ))}
            </List>
            {items.some((i) => i.status === 'failed' && i.retryable) && (
              <Box sx={{ p: 1, textAlign: 'right' }}>
                <Button size="small" data-testid="fetch-retry-failed" onClick={() => queue.send({ type: 'RETRY' })}>
                  {t('secureFetch.upload.retryFailed')}
                </Button>
              </Box>
            )}
          </Paper>
        )}
        {link?.includeMetadata && (
          <Paper variant="outlined" sx={{ p: 2 }}>
            <MetadataForm values={metadata} errors={fieldErrors} disabled={busy} onChange={(field, value) => send({ type: 'METADATA.CHANGE', field, value })} />
          </Paper>
        )}
        {error && (
          <Alert severity="error" data-testid="fetch-submit-error" data-error-code={error.code}>
            {t(`secureFetch.upload.problems.${error.code}`, { defaultValue: translateError(t, i18n.language, error) })}
          </Alert>
        )}
        <Box>
          <Button variant="contained" size="large" disabled={busy} onClick={submit} data-testid="fetch-submit">
            {busy ? t('secureFetch.upload.sending') : t('secureFetch.upload.send')}
          </Button>
          {busy && <LinearProgress sx={{ mt: 1 }} />}
        </Box>
      </Stack>
    </Container>
  );
};
