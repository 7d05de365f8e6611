import LockOutlined from '@mui/icons-material/LockOutlined';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { FormField } from '../../components/FormField';
import type { FieldErrors } from '../../forms/zodErrors';
import type { ShareCredentials } from './share-link.api';
import { validateAccessForm } from './sharing.validation';

/** The download page's password dialog; a private share also asks for the recipient's e-mail. */
export const ShareAccessDialog = ({
  open,
  title,
  needs,
  initialEmail,
  serverErrors,
  busy,
  onSubmit,
}: {
  open: boolean;
  title: string;
  needs: { password: boolean; email: boolean };
  initialEmail: string;
  serverErrors: FieldErrors;
  busy: boolean;
  onSubmit: (credentials: ShareCredentials) => void;
}) => {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [email, setEmail] = useState(initialEmail);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  // Each refusal from the server replaces what the form said; the typed password is cleared.
  useEffect(() => {
    setFieldErrors(serverErrors);
    if (serverErrors.password) setPassword('');
  }, [serverErrors]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const result = validateAccessForm({ password, email }, needs);
    if (!result.ok) {
      setFieldErrors(result.fieldErrors);
      return;
    }
    setFieldErrors({});
    onSubmit(result.value);
  };
  return (
    <Dialog open={open} fullWidth maxWidth="xs" data-testid="share-access-dialog">
      <form onSubmit={submit} noValidate>
        <DialogTitle sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <LockOutlined fontSize="small" />
          {title}
        </DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 1 }}>
            {needs.email && needs.password
              ? t('sharing.access.emailAndPassword')
              : needs.email
                ? t('sharing.access.emailOnly')
                : t('sharing.access.passwordOnly')}
          </DialogContentText>
          <Stack>
            {needs.email && (
              <FormField
                name="email"
                type="email"
                autoComplete="email"
                label={t('sharing.access.email')}
                value={email}
                onValue={setEmail}
                errorKey={fieldErrors.email}
                testId="share-access-email"
                autoFocus
              />
            )}
            {needs.password && (
              <FormField
                name="password"
                type="password"
                autoComplete="off"
                label={t('sharing.access.password')}
                value={password}
                onValue={setPassword}
                errorKey={fieldErrors.password}
                testId="share-access-password"
                autoFocus={!needs.email}
              />
            )}
          </Stack>
          {busy && <LinearProgress aria-label={t('common.loading')} />}
        </DialogContent>
        <DialogActions>
          <Button type="submit" variant="contained" disabled={busy} data-testid="share-access-submit">
            {t('sharing.access.open')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};

/** An end-to-end encrypted file can only be opened with the unlocker tool. */
export const NeedsUnlockerDialog = ({ open, name, onClose }: { open: boolean; name: string; onClose: () => void }) => {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} data-testid="needs-unlocker-dialog">
      <DialogTitle>{t('sharing.unlocker.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{t('sharing.unlocker.body', { name })}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.close')}</Button>
        <Button variant="contained" component={RouterLink} to="/axel-unlocker" data-testid="needs-unlocker-open">
          {t('sharing.unlocker.open')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
