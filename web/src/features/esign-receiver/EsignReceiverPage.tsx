import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import LockClockOutlined from '@mui/icons-material/LockClockOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMachine } from '@xstate/react';
import { lazy, Suspense, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { fromCallback, fromPromise } from 'xstate';
import { toApiError, type NormalisedError } from '../../api/errors';
import { isLinkId, receiverApi, type LinkView, type Signature, type SigningEntry, type SigningPin } from './esign-receiver.api';
import { SignatureDialog } from './SignatureDialog';
import { signerColor } from './signature-text';
import { forgetPassword, rememberedPassword, rememberPassword } from './password-store';
import { allFilled, HEARTBEAT_MS, LOCKED_CODE, minePins, signingMachine, type FinishCall, type LinkCall, type SigningEvent } from './signing.machine';

const SigningDocuments = lazy(() => import('./SigningDocuments'));

/** A refusal in the signer's language (`esignReceiver.errors.<code>`), else the server's own words. */
const useErrorText = () => {
  const { t } = useTranslation();
  return (error: NormalisedError) =>
    t(`esignReceiver.errors.${error.code}`, { defaultValue: t(`errors.${error.code}`, { defaultValue: error.message || t('errors.UNKNOWN') }) });
};

const Problem = ({ error, testId = 'esign-error' }: { error: NormalisedError | null; testId?: string }) => {
  const text = useErrorText();
  if (!error) return null;
  return (
    <Alert severity="error" role="alert" data-testid={testId} data-error-code={error.code} sx={{ my: 2 }}>
      {text(error)}
    </Alert>
  );
};

const PasswordForm = ({ error, onSubmit }: { error: NormalisedError | null; onSubmit: (password: string) => void }) => {
  const { t } = useTranslation();
  const text = useErrorText();
  const [password, setPassword] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password) onSubmit(password);
  };
  // the first visit only asks; a refused password says why under the field
  const shown = error && error.code !== 'ESIGN_PASSWORD_REQUIRED' ? text(error) : null;
  return (
    <Paper component="form" onSubmit={submit} variant="outlined" sx={{ p: { xs: 2, sm: 3 } }} data-testid="esign-password-form">
      <Typography variant="h5" component="h1" gutterBottom>
        {t('esignReceiver.password.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('esignReceiver.password.hint')}
      </Typography>
      <TextField
        fullWidth
        type="password"
        autoFocus
        autoComplete="off"
        label={t('esignReceiver.password.label')}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={!!shown}
        helperText={shown ?? ' '}
        slotProps={{ htmlInput: { 'data-testid': 'esign-password' }, formHelperText: { 'data-testid': 'esign-password-error' } as object }}
      />
      <Button type="submit" variant="contained" disabled={!password} data-testid="esign-password-submit" sx={{ mt: 1 }}>
        {t('esignReceiver.password.open')}
      </Button>
    </Paper>
  );
};

const PackageHeader = ({ view }: { view: LinkView }) => {
  const { t } = useTranslation();
  return (
    <Box sx={{ mb: 2 }}>
      <Typography variant="h5" component="h1" sx={{ overflowWrap: 'anywhere' }} data-testid="esign-package-name">
        {view.name}
      </Typography>
      {view.message && (
        <Typography color="text.secondary" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', mt: 1 }} data-testid="esign-message">
          {view.message}
        </Typography>
      )}
      <Chip
        size="small"
        label={t('esignReceiver.signingAs', { name: view.signer.name })}
        sx={{ mt: 1, maxWidth: '100%', borderColor: signerColor(view.signer.color), borderWidth: 2 }}
        variant="outlined"
      />
    </Box>
  );
};

/** The sealed PDF, fetched with the password and handed to the browser as a file. */
const DownloadSealed = ({ linkId, password, name }: { linkId: string; password: string; name: string }) => {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<NormalisedError | null>(null);
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      const blob = await receiverApi.document(linkId, password);
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = `${name} (signed).pdf`;
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (e) {
      setError(toApiError(e).toJSON());
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button variant="contained" startIcon={<DownloadOutlined />} onClick={download} disabled={busy} data-testid="esign-download">
        {t('esignReceiver.done.download')}
      </Button>
      <Problem error={error} />
    </>
  );
};

/**
 * A signer's page, reached from the link in their mail (`/esigns/<linkId>`, also
 * `/receiver/signing/<linkId>` and the mobile `/esign/<linkId>`): the package's password, then
 * the documents with their fields, then Finish; the sealed document once every signer has finished.
 */
export const EsignReceiverPage = () => {
  const params = useParams();
  const linkId = params.linkId ?? params.itemId;
  const { t } = useTranslation();
  if (!isLinkId(linkId)) {
    return (
      <Container maxWidth="sm" sx={{ py: 4 }}>
        <Problem error={{ code: 'ESIGN_LINK_NOT_FOUND', message: t('esignReceiver.errors.ESIGN_LINK_NOT_FOUND'), data: null }} />
      </Container>
    );
  }
  return <SigningFlow key={linkId} linkId={linkId} />;
};

const SigningFlow = ({ linkId }: { linkId: string }) => {
  const { t } = useTranslation();
  const machine = useMemo(
    () =>
      signingMachine.provide({
        actors: {
          loadView: fromPromise<LinkView, LinkCall>(({ input }) => receiverApi.view(input.linkId, input.password)),
          loadEntries: fromPromise<SigningEntry[], LinkCall>(({ input }) => receiverApi.entries(input.linkId, input.password)),
          finish: fromPromise<LinkView, FinishCall>(async ({ input }) => {
            if (input.signature) await receiverApi.sign(input.linkId, input.password, input.signature);
            return receiverApi.finish(input.linkId, input.password);
          }),
          heartbeat: fromCallback<SigningEvent, LinkCall>(({ input, sendBack }) => {
            const beat = async () => {
              try {
                await receiverApi.heartbeat(input.linkId, input.password);
              } catch (e) {
                const error = toApiError(e);
                if (error.code === LOCKED_CODE) sendBack({ type: 'LEASE_LOST', error: error.toJSON() });
              }
            };
            const timer = setInterval(beat, HEARTBEAT_MS);
            return () => clearInterval(timer);
          }),
        },
      }),
    [],
  );
  const [state, send] = useMachine(machine, { input: { linkId, password: rememberedPassword(linkId) } });
  const { context } = state;
  const [dialogPin, setDialogPin] = useState<SigningPin | null>(null);

  // a password the server accepted is kept for this tab; a refused one is forgotten
  useEffect(() => {
    if (context.view && context.password) rememberPassword(linkId, context.password);
    if (context.passwordError) forgetPassword(linkId);
  }, [context.view, context.password, context.passwordError, linkId]);

  // leaving the page lets go of the signing lease at once, so the next signer need not wait for it to expire
  const holding = useRef<string | null>(null);
  holding.current = state.matches('signing') ? context.password : null;
  useEffect(() => {
    const release = () => {
      if (holding.current) void receiverApi.release(linkId, holding.current).catch(() => undefined);
    };
    window.addEventListener('pagehide', release);
    return () => {
      window.removeEventListener('pagehide', release);
      release();
    };
  }, [linkId]);

  const onPin = (pin: SigningPin) => {
    const needsSignature = pin.kind === 'signature' || pin.kind === 'initials';
    if (needsSignature && !context.signature && !pin.filled) setDialogPin(pin);
    else if (needsSignature && context.filled.includes(pin.id) && context.signature) {
      // a filled signature field clicked again: a new signature replaces the adopted one
      send({ type: 'CLEAR_SIGNATURE' });
      setDialogPin(pin);
    } else send({ type: 'FILL', pinId: pin.id });
  };

  const mine = minePins(context.entries);
  const filledCount = mine.filter((p) => context.filled.includes(p.id)).length;
  const busy = state.matches('start') || state.matches('opening') || state.matches('route') || state.matches('loadingEntries');

  return (
    <Container maxWidth="md" sx={{ py: { xs: 2, sm: 4 }, px: { xs: 1.5, sm: 3 } }} data-testid="esign-receiver" data-state={String(state.value)}>
      {state.matches('password') && <PasswordForm error={context.passwordError} onSubmit={(password) => send({ type: 'SUBMIT_PASSWORD', password })} />}
      {busy && (
        <Box sx={{ display: 'grid', placeItems: 'center', py: 6 }}>
          <CircularProgress aria-label={t('common.loading')} />
        </Box>
      )}
      {context.view && !state.matches('password') && !busy && <PackageHeader view={context.view} />}

      {state.matches('waiting') && (
        <Alert
          severity="info"
          data-testid="esign-waiting"
          action={
            <Button onClick={() => send({ type: 'RETRY' })} sx={{ whiteSpace: 'nowrap' }}>
              {t('esignReceiver.checkAgain')}
            </Button>
          }
        >
          {t('esignReceiver.waiting')}
        </Alert>
      )}
      {state.matches('closed') && (
        <Alert severity="warning" data-testid="esign-closed">
          {t('esignReceiver.closed')}
        </Alert>
      )}
      {state.matches('locked') && (
        <Alert
          severity="warning"
          icon={<LockClockOutlined />}
          data-testid="esign-locked"
          action={
            <Button onClick={() => send({ type: 'RETRY' })} sx={{ whiteSpace: 'nowrap' }}>
              {t('esignReceiver.tryNow')}
            </Button>
          }
        >
          {t('esignReceiver.locked')}
        </Alert>
      )}
      {state.matches('failed') && (
        <>
          <Problem error={context.error} />
          <Button onClick={() => send({ type: 'RETRY' })}>{t('esignReceiver.checkAgain')}</Button>
        </>
      )}

      {(state.matches('signing') || state.matches('finishing')) && context.view && (
        <>
          <Typography sx={{ mb: 1 }}>{t('esignReceiver.instructions')}</Typography>
          <Problem error={context.error} />
          <Paper
            variant="outlined"
            sx={{
              position: 'sticky',
              top: 0,
              zIndex: 2,
              p: 1.5,
              mb: 2,
              display: 'flex',
              flexWrap: 'wrap',
              gap: 1,
              alignItems: 'center',
              justifyContent: 'space-between',
            }}
          >
            <Typography data-testid="esign-progress">{t('esignReceiver.progress', { filled: filledCount, total: mine.length })}</Typography>
            <Button
              variant="contained"
              onClick={() => send({ type: 'FINISH' })}
              disabled={!allFilled(context) || state.matches('finishing')}
              data-testid="esign-finish"
            >
              {t('esignReceiver.finish')}
            </Button>
            {state.matches('finishing') && <LinearProgress sx={{ width: '100%' }} />}
          </Paper>
          <Suspense fallback={<CircularProgress aria-label={t('common.loading')} />}>
            <SigningDocuments
              entries={context.entries}
              password={context.password}
              signerName={context.view.signer.name}
              signature={context.signature}
              filled={context.filled}
              active={state.matches('signing')}
              onPin={onPin}
            />
          </Suspense>
          <SignatureDialog
            open={dialogPin !== null}
            defaultName={context.view.signer.name}
            onClose={() => setDialogPin(null)}
            onAdopt={(signature: Signature) => {
              if (dialogPin) send({ type: 'ADOPT', signature, pinId: dialogPin.id });
              setDialogPin(null);
            }}
          />
        </>
      )}

      {(state.matches('done') || state.matches('refreshing')) && context.view && (
        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }} data-testid="esign-done" data-ready={context.view.documentReady ? 'true' : 'false'}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
            <CheckCircleOutlined color="success" />
            <Typography variant="h6" component="h2">
              {t('esignReceiver.done.title')}
            </Typography>
          </Stack>
          {context.view.documentReady ? (
            <>
              <Typography sx={{ mb: 2 }}>{t('esignReceiver.done.ready')}</Typography>
              <DownloadSealed linkId={linkId} password={context.password} name={context.view.name} />
            </>
          ) : (
            <>
              <Typography sx={{ mb: 2 }} data-testid="esign-done-pending">
                {t('esignReceiver.done.pending')}
              </Typography>
              <Button onClick={() => send({ type: 'RETRY' })} disabled={state.matches('refreshing')} data-testid="esign-check-again">
                {t('esignReceiver.checkAgain')}
              </Button>
            </>
          )}
        </Paper>
      )}
    </Container>
  );
};
