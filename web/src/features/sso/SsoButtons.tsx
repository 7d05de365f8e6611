import LoginOutlined from '@mui/icons-material/LoginOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../i18n';
import { ssoProviders, type SsoProvider } from './sso.api';
import { authorizeHref, rememberRound } from './sso.round';

/** Why the server sent the user from a provider to sign-up, said on the sign-up page. */
export const SsoSignUpNotice = ({ reason, email }: { reason: string | null; email: string }) => {
  const { t } = useTranslation();
  if (!reason) return null;
  const key = reason === 'EMAIL_NOT_VERIFIED' ? 'sso.signUp.unverified' : 'sso.signUp.acceptTerms';
  return (
    <Alert severity="info" sx={{ mb: 2 }} data-testid="sso-signup-notice" data-reason={reason}>
      {t(key, { email })}
    </Alert>
  );
};

/**
 * One button per single sign-on provider the server is configured for (none, nothing shown). On
 * the sign-up page the terms must be accepted first: the server then creates a new account.
 */
export const SsoButtons = ({ from, redirect, termsAccepted = false }: { from: 'signin' | 'signup'; redirect: string; termsAccepted?: boolean }) => {
  const { t } = useTranslation();
  const [providers, setProviders] = useState<SsoProvider[]>([]);

  useEffect(() => {
    let wanted = true;
    ssoProviders().then(
      (list) => wanted && setProviders(list),
      () => wanted && setProviders([]),
    );
    return () => {
      wanted = false;
    };
  }, []);

  if (!providers.length) return null;
  const blocked = from === 'signup' && !termsAccepted;
  const start = (provider: SsoProvider) => {
    rememberRound({ redirect, from });
    window.location.assign(authorizeHref(provider, from === 'signup' && termsAccepted, currentLocale()));
  };

  return (
    <Stack spacing={1} sx={{ mt: 2 }} data-testid="sso-buttons">
      <Divider>
        <Typography variant="body2" color="text.secondary">
          {t('sso.or')}
        </Typography>
      </Divider>
      {providers.map((p) => (
        <Button
          key={p.type}
          variant="outlined"
          fullWidth
          startIcon={<LoginOutlined />}
          disabled={blocked}
          onClick={() => start(p)}
          data-testid={`sso-${p.type}`}
        >
          {t('sso.continueWith', { provider: t(`sso.providers.${p.type}`, { defaultValue: p.type }) })}
        </Button>
      ))}
      {blocked && (
        <Typography variant="body2" color="text.secondary" data-testid="sso-terms-first">
          {t('sso.termsFirst')}
        </Typography>
      )}
    </Stack>
  );
};
