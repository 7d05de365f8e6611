import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useMachine } from '@xstate/react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { toApiError } from '../../api/errors';
import { filesApi, type Item } from '../files/files.api';
import { fileLockApi, LOCKED_CODE, type LockMethod } from './file-lock.api';
import { lockDialogMachine, type LockPurpose } from './file-lock.machine';

interface Request {
  readonly purpose: LockPurpose;
  readonly item: Pick<Item, 'id' | 'name' | 'storageId'>;
  readonly done: (ok: boolean) => void;
}

const CodeDialog = ({ userId, request, onEnd }: { userId: string; request: Request; onEnd: (ok: boolean) => void }) => {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const { item, purpose } = request;
  const machine = useMemo(
    () =>
      lockDialogMachine.provide({
        actors: {
          askCode: fromPromise(() => fileLockApi.askCode(userId, item.storageId)),
          submit: fromPromise<void, { code: string; purpose: LockPurpose }>(async ({ input }) => {
            await fileLockApi[input.purpose](userId, item.storageId, item.id, input.code);
          }),
        },
      }),
    [userId, item],
  );
  const [state, send] = useMachine(machine, { input: { purpose } });
  useEffect(() => {
    if (state.matches('done')) onEnd(true);
    if (state.matches('cancelled')) onEnd(false);
  }, [state, onEnd]);
  const method: LockMethod | null = state.context.method;
  const error = state.context.error;
  const busy = state.matches('asking') || state.matches('submitting');
  return (
    <Dialog open onClose={() => send({ type: 'CANCEL' })} fullWidth maxWidth="xs" data-testid="lock-code-dialog">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          send({ type: 'SUBMIT', code });
        }}
      >
        <DialogTitle>{t(`fileLock.title.${purpose}`)}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ wordBreak: 'break-word' }}>{t(`fileLock.body.${purpose}`, { name: item.name })}</DialogContentText>
          {method && <DialogContentText sx={{ mt: 1 }}>{t(`fileLock.method.${method}`)}</DialogContentText>}
          {error && (
            <Alert severity="error" sx={{ mt: 1 }} data-testid="lock-code-error">
              {t(`fileLock.errors.${error.code}`, { defaultValue: error.message })}
            </Alert>
          )}
          <TextField
            autoFocus
            fullWidth
            margin="normal"
            label={t('fileLock.code')}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'one-time-code', maxLength: 6, 'data-testid': 'lock-code-input' } }}
          />
        </DialogContent>
        <DialogActions sx={{ flexWrap: 'wrap' }}>
          {method === 'email' && (
            <Button onClick={() => send({ type: 'RESEND' })} disabled={busy}>
              {t('fileLock.resend')}
            </Button>
          )}
          <Button onClick={() => send({ type: 'CANCEL' })}>{t('common.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={busy || !/^\d{6}$/.test(code.trim())} data-testid="lock-code-submit">
            {t(`fileLock.submit.${purpose}`)}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};

/**
 * The code dialog of the two-factor lock, as a promise: `ask('lock' | 'unlock' | 'open', item)`
 * answers true once the server accepted a code for it, false when the user gave up.
 */
export const useLockDialog = (userId: string | null) => {
  const [request, setRequest] = useState<Request | null>(null);
  const ask = (purpose: LockPurpose, item: Request['item']) => new Promise<boolean>((done) => setRequest({ purpose, item, done }));
  const end = useMemo(
    () => (ok: boolean) =>
      setRequest((current) => {
        current?.done(ok);
        return null;
      }),
    [],
  );

  /**
   * Lets an opening go on: nothing to ask when the item is not locked or this session opened it
   * lately; otherwise the code dialog. True when the item may be opened now.
   */
  const ensureOpen = async (item: Pick<Item, 'id' | 'name' | 'storageId' | 'label'>): Promise<boolean> => {
    if (!userId) return false;
    try {
      if (item.label === 'folder') await filesApi.list(userId, item.storageId, item.id, { page: 1, sortBy: 'name', sortOrder: 'ASC' });
      else await fileLockApi.probe(userId, item.storageId, item.id);
      return true;
    } catch (e) {
      // any other failure is the opening's own to show
      if (toApiError(e).code !== LOCKED_CODE) return true;
      return ask('open', item);
    }
  };

  const dialog = userId && request ? <CodeDialog key={`${request.purpose}:${request.item.id}`} userId={userId} request={request} onEnd={end} /> : null;
  return { ask, ensureOpen, dialog };
};
