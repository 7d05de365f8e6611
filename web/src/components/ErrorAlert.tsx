import Alert from '@mui/material/Alert';
import { useTranslation } from 'react-i18next';
import type { NormalisedError } from '../api/errors';
import { translateError } from './i18nHelpers';

export const ErrorAlert = ({ error, testId = 'form-error' }: { error: NormalisedError | null | undefined; testId?: string }) => {
  const { t, i18n } = useTranslation();
  if (!error) return null;
  return (
    <Alert severity="error" role="alert" data-testid={testId} data-error-code={error.code} sx={{ my: 2 }}>
      {translateError(t, i18n.language, error)}
    </Alert>
  );
};
