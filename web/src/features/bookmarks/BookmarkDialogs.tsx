import { normaliseTitle, titleProblem } from '@axel/domain/bookmarks/bookmarks.titles';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useEffect, useState } from 'react';
import { createActor, fromPromise, type Actor, type SnapshotFrom } from 'xstate';
import { useTranslation } from 'react-i18next';
import type { NormalisedError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { shareLinkApi, type ShareCredentials } from '../sharing/share-link.api';
import { addBookmarkMachine } from './add-bookmark.machine';
import { bookmarksApi, type BookmarkList } from './bookmarks.api';
import { linkIdFrom } from './share-link';

const addMachine = addBookmarkMachine.provide({
  actors: {
    add: fromPromise(({ input }: { input: { linkId: string; bookmarkListId: string | null } }) => bookmarksApi.add(input.linkId, input.bookmarkListId)),
    verify: fromPromise(async ({ input }: { input: { linkId: string; credentials: ShareCredentials } }) => {
      await shareLinkApi.entries(input.linkId, null, input.credentials);
    }),
  },
});

interface Base {
  open: boolean;
  busy: boolean;
  error: NormalisedError | null;
  onClose: () => void;
}

/** A bookmark's description or a list's name, checked by the same title rules the server applies. */
export const TitleDialog = ({
  open,
  busy,
  error,
  onClose,
  title,
  label,
  initial = '',
  submitLabel,
  onSubmit,
}: Base & { title: string; label: string; initial?: string; submitLabel: string; onSubmit: (value: string) => void }) => {
  const { t } = useTranslation();
  const [value, setValue] = useState(initial);
  const [touched, setTouched] = useState(false);
  useEffect(() => {
    if (open) {
      setValue(initial);
      setTouched(false);
    }
  }, [open, initial]);
  const problem = titleProblem(normaliseTitle(value));
  const show = touched && problem !== null;
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" data-testid="title-dialog">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (!problem) onSubmit(normaliseTitle(value));
        }}
      >
        <DialogTitle>{title}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            margin="dense"
            label={label}
            value={value}
            onChange={(e) => {
              setValue(e.target.value);
              setTouched(true);
            }}
            error={show}
            helperText={show ? t(`bookmarks.titleProblems.${problem}`) : ' '}
            slotProps={{ htmlInput: { 'data-testid': 'title-input' } }}
          />
          <ErrorAlert error={error} testId="title-error" />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={busy || show} data-testid="title-submit">
            {submitLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};

const NO_LIST = '';

/** Moves a bookmark into one of the lists, or out of every list. */
export const MoveDialog = ({
  open,
  busy,
  error,
  onClose,
  name,
  lists,
  current,
  onSubmit,
}: Base & { name: string; lists: BookmarkList[]; current: string | null; onSubmit: (listId: string | null) => void }) => {
  const { t } = useTranslation();
  const [choice, setChoice] = useState(current ?? NO_LIST);
  useEffect(() => {
    if (open) setChoice(current ?? NO_LIST);
  }, [open, current]);
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" data-testid="move-dialog">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit(choice === NO_LIST ? null : choice);
        }}
      >
        <DialogTitle>{t('bookmarks.moveTitle', { name })}</DialogTitle>
        <DialogContent>
          <TextField
            select
            fullWidth
            margin="dense"
            label={t('bookmarks.list')}
            value={choice}
            onChange={(e) => setChoice(e.target.value)}
            slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'move-select' } as object } }}
          >
            <MenuItem value={NO_LIST} data-testid="move-option-none">
              {t('bookmarks.noList')}
            </MenuItem>
            {lists.map((l) => (
              <MenuItem key={l.id} value={l.id} data-testid={`move-option-${l.id}`}>
                {l.name}
              </MenuItem>
            ))}
          </TextField>
          <ErrorAlert error={error} testId="move-error" />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={busy} data-testid="move-submit">
            {t('bookmarks.move')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};

/** Confirms deleting a bookmark or a list. */
export const ConfirmDialog = ({ open, busy, error, onClose, title, body, onConfirm }: Base & { title: string; body: string; onConfirm: () => void }) => {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" data-testid="confirm-dialog">
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText>{body}</DialogContentText>
        <ErrorAlert error={error} testId="confirm-error" />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button color="error" variant="contained" disabled={busy} onClick={onConfirm} data-testid="confirm-submit">
          {t('bookmarks.delete')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};

/**
 * Bookmarks a share from its pasted link; a password share asks its password here first (a wrong
 * one is asked again, with the message), as opening it would.
 */
export const AddByLinkDialog = ({
  open,
  onClose,
  onAdded,
  bookmarkListId,
  viewerEmail,
}: {
  open: boolean;
  onClose: () => void;
  onAdded: () => void;
  bookmarkListId: string | null;
  viewerEmail: string | null;
}) => {
  const { t } = useTranslation();
  const [value, setValue] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const [actor, setActor] = useState<Actor<typeof addMachine> | null>(null);
  const [snapshot, setSnapshot] = useState<SnapshotFrom<typeof addMachine> | null>(null);
  const [error, setError] = useState<NormalisedError | null>(null);
  useEffect(() => {
    if (open) {
      setValue('');
      setPassword('');
      setTouched(false);
      setError(null);
      setSnapshot(null);
      setActor(null);
    }
  }, [open]);
  useEffect(() => () => void actor?.stop(), [actor]);

  const linkId = linkIdFrom(value);
  const show = touched && linkId === null;
  const asking = snapshot?.matches('askingPassword') ?? false;
  const busy = snapshot !== null && snapshot.status === 'active' && !asking;
  const shownError = asking ? (snapshot?.context.error ?? null) : error;

  const start = (id: string) => {
    setError(null);
    const next = createActor(addMachine, { input: { linkId: id, bookmarkListId, viewerEmail } });
    next.subscribe((s) => {
      setSnapshot(s);
      if (s.status !== 'done') return;
      if (s.output?.bookmark) onAdded();
      else if (s.output?.error) setError(s.output.error);
      setPassword('');
      setSnapshot(null);
    });
    setActor(next);
    next.start();
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" data-testid="add-by-link-dialog">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (asking) {
            if (password) actor?.send({ type: 'SUBMIT_PASSWORD', password });
          } else if (linkId && !busy) start(linkId);
        }}
      >
        <DialogTitle>{t('bookmarks.addByLinkTitle')}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            margin="dense"
            label={t('bookmarks.shareLink')}
            value={value}
            disabled={asking || busy}
            onChange={(e) => {
              setValue(e.target.value);
              setTouched(true);
            }}
            error={show}
            helperText={show ? t('bookmarks.shareLinkInvalid') : t('bookmarks.shareLinkHelp')}
            slotProps={{ htmlInput: { 'data-testid': 'share-link-input' } }}
          />
          {asking && (
            <>
              <DialogContentText sx={{ mt: 1 }}>{t('bookmarks.passwordToAdd')}</DialogContentText>
              <TextField
                autoFocus
                fullWidth
                margin="dense"
                type="password"
                autoComplete="off"
                label={t('bookmarks.password')}
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                slotProps={{ htmlInput: { 'data-testid': 'add-by-link-password' } }}
              />
            </>
          )}
          <ErrorAlert error={shownError} testId="add-by-link-error" />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={busy || show || (asking && !password)} data-testid="add-by-link-submit">
            {t('bookmarks.add')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};

/** The password of a protected bookmarked share; a wrong one returns to the list with the message. */
export const PasswordDialog = ({
  open,
  busy,
  name,
  onClose,
  onSubmit,
}: {
  open: boolean;
  busy: boolean;
  name: string;
  onClose: () => void;
  onSubmit: (password: string) => void;
}) => {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  useEffect(() => {
    if (open) setPassword('');
  }, [open]);
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" data-testid="bookmark-password-dialog">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (password) onSubmit(password);
        }}
      >
        <DialogTitle>{t('bookmarks.passwordTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{t('bookmarks.passwordBody', { name })}</DialogContentText>
          <TextField
            autoFocus
            fullWidth
            margin="dense"
            type="password"
            autoComplete="off"
            label={t('bookmarks.password')}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            slotProps={{ htmlInput: { 'data-testid': 'bookmark-password-input' } }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={busy || !password} data-testid="bookmark-password-submit">
            {t('bookmarks.open')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};
