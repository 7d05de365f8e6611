import { deleteAccountSchema } from '@axel/domain/accounts/accounts.validation';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../../api/client';
import type { NormalisedError } from '../../api/errors';
import type { UserInfo } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FormField } from '../../components/FormField';
import { splitServerError } from '../../forms/serverErrors';
import { validate, type FieldErrors } from '../../forms/zodErrors';
import { ACCOUNT_DELETED_REASON, DELETED_ACCOUNT_PATH } from '../../routing/guard';
import { sessionStore } from '../../session/store';
import { settingsApi } from './settings.api';

/** The word the user types to confirm (the specification: typing YES confirms account deletion). */
export const DELETE_CONFIRMATION_WORD = 'YES';

export const DeleteAccountTab = ({ user }: { user: UserInfo }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [confirmation, setConfirmation] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<NormalisedError | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const v = validate(deleteAccountSchema, { confirmation, password });
    const errors: FieldErrors = v.ok ? {} : { ...v.fieldErrors };
    if (confirmation !== DELETE_CONFIRMATION_WORD) errors.confirmation = 'errors.CONFIRMATION_REQUIRED';
    if (Object.keys(errors).length > 0) return setFieldErrors(errors);
    setFieldErrors({});
    setError(null);
    setBusy(true);
    try {
      await settingsApi.deleteAccount(user.id, { confirmation, password });
      api.cancelAll();
      // The reason keeps the guard from sending the now signed-out page to sign-in.
      sessionStore.signedOut(ACCOUNT_DELETED_REASON);
      void navigate(DELETED_ACCOUNT_PATH, { replace: true });
    } catch (err) {
      const split = splitServerError(err, { WRONG_PASSWORD: 'password', CONFIRMATION_REQUIRED: 'confirmation' });
      setFieldErrors(split.fieldErrors);
      setError(split.error);
      setBusy(false);
    } finally {
      setPassword('');
    }
  };

  return (
    <Box data-testid="settings-delete">
      <Typography variant="h6" component="h2" gutterBottom>
        {t('deleteAccount.title')}
      </Typography>
      <Alert severity="warning" sx={{ mb: 2 }}>
        {t('deleteAccount.warning')}
      </Alert>
      <Box component="form" noValidate onSubmit={(e) => void submit(e)} aria-label={t('deleteAccount.title')}>
        <ErrorAlert error={error} testId="delete-account-error" />
        <FormField
          name="confirmation"
          label={t('deleteAccount.confirmationLabel', { word: DELETE_CONFIRMATION_WORD })}
          value={confirmation}
          onValue={setConfirmation}
          errorKey={fieldErrors.confirmation}
          autoComplete="off"
          testId="delete-confirmation"
        />
        <FormField
          name="password"
          type="password"
          autoComplete="current-password"
          label={t('fields.currentPassword')}
          value={password}
          onValue={setPassword}
          errorKey={fieldErrors.password}
          testId="delete-password"
        />
        <Button
          type="submit"
          variant="contained"
          color="error"
          disabled={busy || confirmation !== DELETE_CONFIRMATION_WORD}
          sx={{ mt: 1 }}
          data-testid="delete-account-submit"
        >
          {t('deleteAccount.submit')}
        </Button>
      </Box>
    </Box>
  );
};
