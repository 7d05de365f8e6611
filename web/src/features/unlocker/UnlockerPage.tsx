import LockOpenOutlined from '@mui/icons-material/LockOpenOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMachine } from '@xstate/react';
import { type DragEvent, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { fromCallback, fromPromise } from 'xstate';
import { ApiError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { localeTag } from '../../components/i18nHelpers';
import { useLoad } from '../../components/useLoad';
import { useSession } from '../../session/store';
import { e2eeCrypto } from '../e2ee/crypto';
import { e2eeApi } from '../e2ee/e2ee.api';
import { useSkip2faDialog } from '../files/dialogs';
import { archiveName, formatBytes } from '../files/format';
import { filesApi } from '../files/files.api';
import { downloadUrl, fetchWithProgress, saveAsDownload } from './unlocker.io';
import { stepsOf, type TaskStart, type UnlockerEvent, type UnlockItem, unlockerMachine, unlockerStatus, unlockerStep } from './unlocker.machine';
import { unlockerPipeline } from './unlocker.pipeline';

/**
 * The unlocker (`/axel-unlocker`): end-to-end encrypted files dropped or picked here (`.pgp`
 * messages, or a `.zip` of them), or items of a storage (`?storageId=&itemIds=`), are downloaded,
 * unpacked and decrypted in this browser with the user's own key, unlocked once with the passphrase.
 */
export const UnlockerPage = () => {
  const { t, i18n } = useTranslation();
  const user = useSession().user;
  const userId = user?.id ?? '';
  const settings = useLoad(() => (userId ? e2eeApi.get(userId) : Promise.resolve(null)), [userId]);
  const skip2faDialog = useSkip2faDialog();
  const [params] = useSearchParams();
  const saved = useRef(new Map<number, string>());
  const savedIndex = useRef(0);
  const [links, setLinks] = useState<{ name: string; url: string }[]>([]);
  // the machine is made once; what it needs from later renders is read through these
  const privateKey = useRef<string | null>(null);
  privateKey.current = settings.data?.e2eePrivateKey ?? null;
  const currentUserId = useRef(userId);
  currentUserId.current = userId;

  // one machine for the page's life; the key and user come through the refs
  const machine = useMemo(() => {
    const userId = () => currentUserId.current;
    const pipeline = unlockerPipeline({
      decrypt: (message) => e2eeCrypto.decryptMessageStream(message),
      save: async (name, data) => {
        const url = saveAsDownload(name, data);
        saved.current.set(savedIndex.current++, url);
        setLinks((l) => [...l, { name, url }]);
      },
    });
    return unlockerMachine.provide({
      actors: {
        unlockKey: fromPromise<void, { passphrase: string }>(async ({ input }) => {
          const key = privateKey.current;
          if (!key) throw new ApiError('KEY_LOCKED', 'Set your end-to-end passphrase in the settings first');
          await e2eeCrypto.unlockSessionKey(key, input.passphrase);
        }),
        startTask: fromPromise<{ id: string; stateURL?: string }, TaskStart>(({ input }) =>
          filesApi.startTask(userId(), {
            action: 'archive',
            itemIds: input.itemIds,
            storageId: input.storageId,
            archiveName: archiveName([{ name: 'unlock', label: 'file' }], new Date()),
            ...(input.skip2fa ? { skip2fa: true, ...(input.skip2fa.code ? { code: input.skip2fa.code } : {}) } : {}),
          }),
        ),
        pollTask: fromPromise(({ input }: { input: { id: string; stateURL?: string } }) => filesApi.taskState(userId(), input)),
        download: fromCallback<UnlockerEvent, { url: string }>(({ sendBack, input }) => {
          const abort = new AbortController();
          fetchWithProgress(downloadUrl(input.url), abort.signal, (loaded, total) => sendBack({ type: 'DOWNLOAD_PROGRESS', loaded, total }))
            .then((file) => sendBack({ type: 'DOWNLOADED', file }))
            .catch((error: unknown) => {
              if (!abort.signal.aborted) sendBack({ type: 'FAILED', error: new ApiError('UNLOCKER_DOWNLOAD_FAILED', String(error)).toJSON() });
            });
          return () => abort.abort();
        }),
        unpack: pipeline.unpack,
        decrypt: pipeline.decrypt,
      },
    });
  }, []);

  const [state, send] = useMachine(machine);
  const status = unlockerStatus(state);
  const step = unlockerStep(state);
  const { items, error, passphraseError, download } = state.context;

  // arriving from a storage selection, or with a direct link
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    const storageId = params.get('storageId');
    const itemIds = (params.get('itemIds') ?? '').split(',').filter(Boolean);
    const url = params.get('url');
    if (storageId && itemIds.length) send({ type: 'START', source: { kind: 'storage', storageId, itemIds } });
    else if (url) send({ type: 'START', source: { kind: 'url', url } });
    else return;
    started.current = true;
  }, [params, send]);

  // spec §8: 5102 opens the skip-2FA dialog; going on creates the task again with skip2fa
  const asking = state.matches({ gettingDownloadURL: 'confirmingSkip2fa' });
  // biome-ignore lint/correctness/useExhaustiveDependencies: opens once per 5102; the dialog's confirm changes on every render
  useEffect(() => {
    if (!asking) return;
    void skip2faDialog.confirm().then((skip) => send(skip ? { type: 'SKIP_2FA' } : { type: 'CANCEL_SKIP_2FA' }));
  }, [asking]);

  const forgetResults = () => {
    for (const url of saved.current.values()) URL.revokeObjectURL(url);
    saved.current.clear();
    setLinks([]);
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: leaving the page forgets the results and locks the key, once
  useEffect(
    () => () => {
      forgetResults();
      void e2eeCrypto.lockSessionKey();
    },
    [],
  );

  const start = (files: File[]) => {
    if (files.length === 0) return;
    forgetResults();
    send({ type: 'START', source: { kind: 'files', files } });
  };
  const stop = () => {
    send({ type: 'STOP' });
    forgetResults();
    void e2eeCrypto.lockSessionKey();
  };
  const reset = () => {
    send({ type: 'RESET' });
    forgetResults();
  };

  const tag = localeTag(i18n.language);
  const bytes = (n: number) => formatBytes(n, tag);
  const steps = [...stepsOf(state.context.origin), 'finished' as const];
  const activeStep = state.matches('done') ? steps.length - 1 : step ? steps.indexOf(step) : 0;
  const noKey = settings.data !== undefined && settings.data !== null && !settings.data.passphraseSet;

  return (
    <Container maxWidth="md" sx={{ py: 3, px: { xs: 1.5, sm: 3 } }} data-testid="unlocker-page" data-status={status} data-step={step ?? ''}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
        <LockOpenOutlined color="primary" />
        <Typography variant="h5" component="h1">
          {t('unlocker.title')}
        </Typography>
      </Stack>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('unlocker.intro')}
      </Typography>
      {noKey && (
        <Alert severity="info" data-testid="unlocker-no-key" sx={{ mb: 2 }}>
          {t('unlocker.noKey')}
        </Alert>
      )}

      {status !== 'none' && (
        <Stepper activeStep={activeStep} alternativeLabel sx={{ mb: 2, '& .MuiStepLabel-label': { fontSize: { xs: '0.7rem', sm: '0.875rem' } } }}>
          {steps.map((s, index) => (
            <Step key={s} completed={state.matches('done') || index < activeStep}>
              <StepLabel>{t(`unlocker.steps.${s}`)}</StepLabel>
            </Step>
          ))}
        </Stepper>
      )}

      {state.matches('idle') && <DropZone onFiles={start} disabled={noKey} />}

      {(state.matches('askingPassphrase') || state.matches('unlockingKey')) && (
        <PassphraseForm
          hint={settings.data?.e2eePassphraseHint ?? null}
          busy={state.matches('unlockingKey')}
          error={passphraseError}
          onUnlock={(passphrase) => send({ type: 'UNLOCK', passphrase })}
          onCancel={stop}
        />
      )}

      {state.matches('gettingDownloadURL') && (
        <Box data-testid="unlocker-getting-url">
          <Typography sx={{ mb: 1 }}>{t('unlocker.gettingDownloadURL')}</Typography>
          <LinearProgress />
        </Box>
      )}

      {state.matches('downloading') && (
        <Box data-testid="unlocker-downloading">
          <Typography sx={{ mb: 1 }}>
            {download.total
              ? t('unlocker.downloadedOf', { done: bytes(download.loaded), total: bytes(download.total) })
              : t('unlocker.downloaded', { done: bytes(download.loaded) })}
          </Typography>
          <LinearProgress variant={download.total ? 'determinate' : 'indeterminate'} value={download.total ? (100 * download.loaded) / download.total : 0} />
        </Box>
      )}

      {state.matches('unpacking') && (
        <Box data-testid="unlocker-unpacking">
          <Typography sx={{ mb: 1 }}>{t('unlocker.unpacking')}</Typography>
          <LinearProgress />
        </Box>
      )}

      {items.length > 0 && (state.matches('decrypting') || state.matches('done')) && <ItemList items={items} bytes={bytes} links={links} />}

      {state.matches('done') && (
        <Alert severity={items.some((i) => i.state === 'failed') ? 'warning' : 'success'} data-testid="unlocker-done" sx={{ mt: 2 }}>
          {t('unlocker.finished', { saved: items.filter((i) => i.state === 'saved').length, total: items.length })}
        </Alert>
      )}

      {state.matches('failed') && <ErrorAlert error={error} testId="unlocker-error" />}

      <Stack direction="row" spacing={1} sx={{ mt: 2, justifyContent: 'flex-end' }}>
        {status === 'running' && (
          <Button color="error" variant="outlined" onClick={stop} data-testid="unlocker-stop">
            {t('unlocker.stop')}
          </Button>
        )}
        {status === 'done' && (
          <Button variant="contained" onClick={reset} data-testid="unlocker-again">
            {t('unlocker.again')}
          </Button>
        )}
      </Stack>
      {skip2faDialog.dialog}
    </Container>
  );
};

const DropZone = ({ onFiles, disabled }: { onFiles: (files: File[]) => void; disabled: boolean }) => {
  const { t } = useTranslation();
  const [over, setOver] = useState(false);
  const drop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    if (!disabled) onFiles(Array.from(e.dataTransfer.files));
  };
  return (
    <Paper
      variant="outlined"
      data-testid="unlocker-drop"
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
      sx={{
        p: { xs: 2, sm: 4 },
        textAlign: 'center',
        borderStyle: 'dashed',
        borderWidth: 2,
        borderColor: over ? 'primary.main' : 'divider',
        bgcolor: over ? 'action.hover' : undefined,
      }}
    >
      <Typography sx={{ mb: 2 }}>{t('unlocker.drop')}</Typography>
      <Button variant="contained" component="label" disabled={disabled}>
        {t('unlocker.select')}
        <input
          hidden
          type="file"
          multiple
          accept=".pgp,.zip,application/zip,application/pgp-encrypted"
          data-testid="unlocker-input"
          onChange={(e) => {
            onFiles(Array.from(e.target.files ?? []));
            e.target.value = '';
          }}
        />
      </Button>
    </Paper>
  );
};

const PassphraseForm = ({
  hint,
  busy,
  error,
  onUnlock,
  onCancel,
}: {
  hint: string | null;
  busy: boolean;
  error: Parameters<typeof ErrorAlert>[0]['error'];
  onUnlock: (passphrase: string) => void;
  onCancel: () => void;
}) => {
  const { t } = useTranslation();
  const [passphrase, setPassphrase] = useState('');
  return (
    <Paper
      variant="outlined"
      component="form"
      sx={{ p: 2 }}
      onSubmit={(e) => {
        e.preventDefault();
        onUnlock(passphrase);
      }}
      data-testid="unlocker-passphrase-form"
    >
      <Typography sx={{ mb: 1 }}>{t('unlocker.passphraseIntro')}</Typography>
      <TextField
        type="password"
        autoComplete="off"
        autoFocus
        fullWidth
        label={t('unlocker.passphrase')}
        helperText={hint ? t('unlocker.hint', { hint }) : ' '}
        value={passphrase}
        onChange={(e) => setPassphrase(e.target.value)}
        disabled={busy}
        slotProps={{ htmlInput: { 'data-testid': 'unlocker-passphrase' } }}
      />
      <ErrorAlert error={error} testId="unlocker-passphrase-error" />
      {busy && <LinearProgress sx={{ my: 1 }} />}
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', mt: 1 }}>
        <Button onClick={onCancel}>{t('unlocker.cancel')}</Button>
        <Button type="submit" variant="contained" disabled={busy || passphrase.length === 0} data-testid="unlocker-unlock">
          {t('unlocker.unlock')}
        </Button>
      </Stack>
    </Paper>
  );
};

const ItemList = ({ items, bytes, links }: { items: UnlockItem[]; bytes: (n: number) => string; links: { name: string; url: string }[] }) => {
  const { t } = useTranslation();
  return (
    <Stack spacing={1.5} data-testid="unlocker-items">
      {items.map((item, index) => {
        const link = links.find((l) => l.name === item.name);
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: the list is fixed for the whole run
          <Paper key={index} variant="outlined" sx={{ p: 1.5 }} data-testid="unlocker-item" data-state={item.state}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 0.5, sm: 2 }} sx={{ justifyContent: 'space-between' }}>
              <Typography sx={{ wordBreak: 'break-all', fontWeight: 500 }}>
                {link ? (
                  <Link href={link.url} download={item.name}>
                    {item.name}
                  </Link>
                ) : (
                  item.name
                )}
              </Typography>
              <Typography variant="body2" color={item.state === 'failed' ? 'error' : 'text.secondary'} sx={{ whiteSpace: 'nowrap' }}>
                {t(`unlocker.itemState.${item.state}`)}
              </Typography>
            </Stack>
            <LinearProgress
              variant="determinate"
              value={item.state === 'saved' ? 100 : item.size > 0 ? Math.min(100, (100 * item.read) / item.size) : 0}
              sx={{ my: 1 }}
            />
            <Typography variant="body2" color="text.secondary" data-testid="unlocker-item-bytes">
              {t('unlocker.bytes', { read: bytes(item.read), size: bytes(item.size), decrypted: bytes(item.decrypted) })}
            </Typography>
            {item.error && <ErrorAlert error={item.error} testId="unlocker-item-error" />}
          </Paper>
        );
      })}
    </Stack>
  );
};
