import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMachine } from '@xstate/react';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { toApiError } from '../../api/errors';
import { CopyableLink } from '../../components/CopyableLink';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FormField } from '../../components/FormField';
import { validate, type FieldErrors } from '../../forms/zodErrors';
import { bindMachine, secondsLeft } from './bind.machine';
import { devicesApi, type Drive } from './devices.api';
import { bindSchema } from './devices.validation';

/** The server's refusals that belong next to a field rather than above the form. */
const FIELD_CODES: Record<string, 'serial' | 'mac'> = {
  CLOUDLOCKER_SERIAL_REQUIRED: 'serial',
  CLOUDLOCKER_SERIAL_INVALID: 'serial',
  CLOUDLOCKER_MAC_REQUIRED: 'mac',
  CLOUDLOCKER_MAC_INVALID: 'mac',
};

/** Still waiting for a device? A 404 means the device has not signed (the drive is not the user's yet). */
const boundDrive = async (userId: string, driveId: string): Promise<Drive | null> => {
  try {
    const drive = await devicesApi.drive(userId, driveId);
    return drive.bound ? drive : null;
  } catch (e) {
    if (toApiError(e).status === 404) return null;
    throw e;
  }
};

const useTicker = (running: boolean) => {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);
  return now;
};

const clockText = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

/**
 * The CloudLocker bind dialog (spec §2, §4): serial and MAC, checked as typed; then the code the
 * device must sign, large and as text to copy, with the time left; bound, or expired with a retry.
 */
const BindFlow = ({ userId, onClose, onBound }: { userId: string; onClose: () => void; onBound: (drive: Drive) => void }) => {
  const { t } = useTranslation();
  const [serial, setSerial] = useState('');
  const [mac, setMac] = useState('');
  const [touched, setTouched] = useState<{ serial?: boolean; mac?: boolean }>({});
  const [state, send] = useMachine(
    bindMachine.provide({
      actors: {
        openClaim: fromPromise(({ input }) => devicesApi.openClaim(input.userId, input.serial, input.mac)),
        checkBound: fromPromise(({ input }) => boundDrive(input.userId, input.driveId)),
      },
    }),
    { input: { userId } },
  );
  const { claim, error, drive } = state.context;
  const now = useTicker(state.matches('waiting') || state.matches('checking'));

  useEffect(() => {
    if (drive) onBound(drive);
  }, [drive, onBound]);

  const checked = validate(bindSchema, { serial, mac });
  const clientErrors: FieldErrors = checked.ok ? {} : checked.fieldErrors;
  const serverField = error ? FIELD_CODES[error.code] : undefined;
  const fieldError = (name: 'serial' | 'mac') =>
    (touched[name] ? clientErrors[name] : undefined) ?? (serverField === name ? `errors.${error!.code}` : undefined);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched({ serial: true, mac: true });
    if (checked.ok) send({ type: 'SUBMIT', serial, mac });
  };

  if (state.matches('bound')) {
    return (
      <>
        <DialogContent>
          <Alert severity="success" data-testid="bind-done">
            {t('devices.bind.bound', { serial: drive?.serial ?? '' })}
          </Alert>
        </DialogContent>
        <DialogActions>
          <Button variant="contained" onClick={onClose} data-testid="bind-close">
            {t('common.close')}
          </Button>
        </DialogActions>
      </>
    );
  }

  if (claim && !state.matches('editing')) {
    const expired = state.matches('expired');
    const left = secondsLeft(claim.deadline, now);
    return (
      <>
        <DialogContent>
          {expired ? (
            <Alert severity="warning" data-testid="bind-expired">
              {t('devices.bind.expired')}
            </Alert>
          ) : (
            <Stack spacing={2}>
              <DialogContentText>{t('devices.bind.enterCode')}</DialogContentText>
              <Typography
                component="p"
                data-testid="bind-code"
                aria-label={t('devices.bind.code')}
                sx={{
                  fontFamily: 'monospace',
                  fontWeight: 700,
                  fontSize: { xs: '2.25rem', sm: '3rem' },
                  letterSpacing: '0.15em',
                  textAlign: 'center',
                  wordBreak: 'break-all',
                }}
              >
                {claim.code}
              </Typography>
              <CopyableLink
                url={claim.code}
                testId="bind-code-text"
                fullWidth
                labels={{ link: t('devices.bind.code'), copy: t('devices.bind.copy'), copied: t('devices.bind.copied') }}
              />
              <Box>
                <Typography variant="body2" color="text.secondary" data-testid="bind-time-left" data-seconds={left}>
                  {t('devices.bind.timeLeft', { time: clockText(left) })}
                </Typography>
                <LinearProgress sx={{ mt: 1 }} aria-label={t('devices.bind.waiting')} />
                <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                  {t('devices.bind.waiting')}
                </Typography>
              </Box>
              <ErrorAlert error={error} testId="bind-poll-error" />
            </Stack>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} data-testid="bind-cancel">
            {t('common.cancel')}
          </Button>
          {expired && (
            <Button variant="contained" onClick={() => send({ type: 'RETRY' })} data-testid="bind-retry">
              {t('devices.bind.retry')}
            </Button>
          )}
        </DialogActions>
      </>
    );
  }

  const opening = state.matches('opening');
  return (
    <Box component="form" noValidate onSubmit={submit}>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{t('devices.bind.intro')}</DialogContentText>
        <Stack spacing={2}>
          <FormField
            name="serial"
            label={t('devices.fields.serial')}
            value={serial}
            onValue={setSerial}
            onBlur={() => setTouched((v) => ({ ...v, serial: true }))}
            errorKey={fieldError('serial')}
            required
            fullWidth
            autoFocus
            autoComplete="off"
            testId="bind-serial"
          />
          <FormField
            name="mac"
            label={t('devices.fields.mac')}
            value={mac}
            onValue={setMac}
            onBlur={() => setTouched((v) => ({ ...v, mac: true }))}
            errorKey={fieldError('mac')}
            hint={t('devices.fields.macHint')}
            required
            fullWidth
            autoComplete="off"
            testId="bind-mac"
          />
        </Stack>
        <ErrorAlert error={serverField ? null : error} testId="bind-error" />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button type="submit" variant="contained" disabled={opening} data-testid="bind-submit">
          {t('devices.bind.submit')}
        </Button>
      </DialogActions>
    </Box>
  );
};

export const BindDialog = ({ open, userId, onClose, onBound }: { open: boolean; userId: string; onClose: () => void; onBound: (drive: Drive) => void }) => {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" data-testid="bind-dialog">
      <DialogTitle>{t('devices.bind.title')}</DialogTitle>
      {/* a new flow each time the dialog opens */}
      {open && <BindFlow userId={userId} onClose={onClose} onBound={onBound} />}
    </Dialog>
  );
};
