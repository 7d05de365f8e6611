import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toApiError, type NormalisedError } from '../api/errors';
import { sessionApi } from '../session/session.api';
import { logout } from '../session/session';
import { sessionStore, useSession } from '../session/store';
import { ErrorAlert } from './ErrorAlert';
import { TermsContent } from './TermsContent';

/** Shown to a signed-in user whose termsAccepted is false; the app stays behind it until accepted. */
export const TermsAcceptanceDialog = () => {
  const { t } = useTranslation();
  const { user } = useSession();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<NormalisedError | null>(null);
  if (!user || user.termsAccepted) return null;

  const accept = async () => {
    setBusy(true);
    setError(null);
    try {
      await sessionApi.acceptTerms(user.id);
      sessionStore.updateUser({ termsAccepted: true });
    } catch (e) {
      setError(toApiError(e).toJSON());
    } finally {
      setBusy(false);
    }
  };

  const decline = async () => {
    await logout();
    void navigate('/signin', { replace: true });
  };

  return (
    <Dialog open scroll="paper" maxWidth="sm" fullWidth aria-labelledby="terms-accept-title" data-testid="terms-dialog">
      <DialogTitle id="terms-accept-title">{t('terms.acceptTitle')}</DialogTitle>
      <DialogContent dividers>
        <TermsContent />
        <ErrorAlert error={error} />
      </DialogContent>
      <DialogActions>
        <Button onClick={() => void decline()} disabled={busy} data-testid="terms-decline">
          {t('terms.decline')}
        </Button>
        <Button variant="contained" onClick={() => void accept()} disabled={busy} data-testid="terms-accept">
          {t('terms.accept')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
