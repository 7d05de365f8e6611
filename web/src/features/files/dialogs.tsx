import { nameProblem, type NameKind } from '@axel/domain/storage/storage.names';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { NormalisedError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { localeTag } from '../../components/i18nHelpers';
import { DOWNLOAD_MAX_BYTES, formatBytes } from './format';

/** Asks for a folder's or item's name, checked by the same validator the server uses. */
export const NameDialog = ({
  open,
  title,
  kind,
  initial = '',
  submitLabel,
  error,
  busy,
  onSubmit,
  onClose,
}: {
  open: boolean;
  title: string;
  kind: NameKind;
  initial?: string;
  submitLabel: string;
  error: NormalisedError | null;
  busy: boolean;
  onSubmit: (name: string) => void;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const [name, setName] = useState(initial);
  const [touched, setTouched] = useState(false);
  useEffect(() => {
    if (open) {
      setName(initial);
      setTouched(false);
    }
  }, [open, initial]);
  const problem = nameProblem(name, kind);
  const showProblem = touched && problem !== null;
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" data-testid="name-dialog">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (!problem) onSubmit(name);
        }}
      >
        <DialogTitle>{title}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            label={t('files.name')}
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              setTouched(true);
            }}
            error={showProblem}
            helperText={showProblem ? t(`files.nameProblems.${problem}`) : ' '}
            slotProps={{ htmlInput: { 'data-testid': 'name-input' } }}
          />
          <ErrorAlert error={error} testId="name-error" />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={busy || (touched && problem !== null)} data-testid="name-submit">
            {submitLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};

/** The download page's size-exceeded dialog (spec §6): at most 10 GB at once. */
export const SizeExceededDialog = ({ open, total, onClose }: { open: boolean; total: number; onClose: () => void }) => {
  const { t, i18n } = useTranslation();
  const tag = localeTag(i18n.language);
  return (
    <Dialog open={open} onClose={onClose} data-testid="size-exceeded-dialog">
      <DialogTitle>{t('files.sizeExceeded.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>
          {total > 0
            ? t('files.sizeExceeded.body', { limit: formatBytes(DOWNLOAD_MAX_BYTES, tag), total: formatBytes(total, tag) })
            : t('files.sizeExceeded.bodyNoTotal', { limit: formatBytes(DOWNLOAD_MAX_BYTES, tag) })}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} variant="contained">
          {t('common.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};

/**
 * The storage quota limit dialog (spec §6): an owner may buy more storage; anyone else (a member)
 * is told to contact support and can only close it.
 */
export const QuotaLimitDialog = ({ open, isOwner, onClose }: { open: boolean; isOwner: boolean; onClose: () => void }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Dialog open={open} onClose={onClose} data-testid="quota-limit-dialog">
      <DialogTitle>{t('files.quota.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{isOwner ? t('files.quota.owner') : t('files.quota.member')}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.close')}</Button>
        {isOwner && (
          <Button
            variant="contained"
            data-testid="quota-upgrade"
            onClick={() => {
              onClose();
              void navigate('/storages/upgrade');
            }}
          >
            {t('files.quota.upgrade')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
};

/** Permanent deletion is confirmed by typing "delete" (spec §5). */
export const DELETE_CONFIRMATION = 'delete';

export const ConfirmDeleteDialog = ({
  open,
  count,
  busy,
  error,
  onConfirm,
  onClose,
}: {
  open: boolean;
  count: number;
  busy: boolean;
  error: NormalisedError | null;
  onConfirm: () => void;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  useEffect(() => {
    if (open) setTyped('');
  }, [open]);
  const confirmed = typed.trim() === DELETE_CONFIRMATION;
  return (
    <Dialog open={open} onClose={onClose} data-testid="delete-dialog">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (confirmed) onConfirm();
        }}
      >
        <DialogTitle>{t('files.trash.deleteTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{t('files.trash.deleteBody', { count })}</DialogContentText>
          <TextField
            autoFocus
            label={t('files.trash.typeDelete', { word: DELETE_CONFIRMATION })}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            slotProps={{ htmlInput: { 'data-testid': 'delete-confirmation-input', autoComplete: 'off' } }}
          />
          <ErrorAlert error={error} testId="delete-error" />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" color="error" variant="contained" disabled={!confirmed || busy} data-testid="delete-confirm">
            {t('files.trash.deleteForever')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};

/**
 * The skip-2FA dialog (spec §8: a storage task failing with code 5102 opens it). `confirm` opens it
 * and resolves with the user's choice; render `dialog` once in the page.
 */
export const useSkip2faDialog = () => {
  const { t } = useTranslation();
  const [pending, setPending] = useState<((skip: boolean) => void) | null>(null);
  const confirm = () => new Promise<boolean>((resolve) => setPending(() => resolve));
  const answer = (skip: boolean) => {
    pending?.(skip);
    setPending(null);
  };
  const dialog = (
    <Dialog open={pending !== null} onClose={() => answer(false)} fullWidth maxWidth="xs" data-testid="skip-2fa-dialog">
      <DialogTitle>{t('files.skip2fa.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{t('files.skip2fa.body')}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => answer(false)} data-testid="skip-2fa-cancel">
          {t('files.skip2fa.cancel')}
        </Button>
        <Button variant="contained" onClick={() => answer(true)} data-testid="skip-2fa-confirm">
          {t('files.skip2fa.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
  return { confirm, dialog };
};
