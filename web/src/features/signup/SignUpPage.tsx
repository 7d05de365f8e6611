import MarkEmailReadOutlined from '@mui/icons-material/MarkEmailReadOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMachine } from '@xstate/react';
import { useMemo, useState, type FormEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Navigate, Link as RouterLink, useSearchParams } from 'react-router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FormField } from '../../components/FormField';
import { translateFieldError } from '../../components/i18nHelpers';
import { LanguageSelect } from '../../components/LanguageSelect';
import { CenteredCard } from '../../components/StatusPage';
import { TermsContent } from '../../components/TermsContent';
import { currentLocale } from '../../i18n';
import { useSession } from '../../session/store';
import { SsoButtons, SsoSignUpNotice } from '../sso/SsoButtons';
import { signupActors } from './signup.api';
import { signupMachine } from './signup.machine';

export const TermsDialog = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} scroll="paper" maxWidth="sm" fullWidth aria-labelledby="terms-title" data-testid="terms-read-dialog">
      <DialogTitle id="terms-title">{t('terms.title')}</DialogTitle>
      <DialogContent dividers>
        <TermsContent />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} data-testid="terms-close">
          {t('common.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};

export const SignUpPage = () => {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const { user } = useSession();
  const pendingEmail = params.get('verify') === '1' ? (params.get('email') ?? undefined) : undefined;
  const machine = useMemo(() => signupMachine.provide({ actors: signupActors }), []);
  const [state, send] = useMachine(machine, { input: { pendingEmail } });
  const [email, setEmail] = useState(params.get('email') ?? '');
  const [password, setPassword] = useState('');
  const [passwordConfirmation, setPasswordConfirmation] = useState('');
  const [termsAccepted, setTermsAccepted] = useState(false);
  const [termsOpen, setTermsOpen] = useState(false);
  const { context } = state;

  if (user) return <Navigate to="/welcome" replace />;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    send({ type: 'SUBMIT', email, password, passwordConfirmation, termsAccepted, locale: currentLocale() });
  };

  if (state.matches('checkInbox') || state.matches('resending')) {
    return (
      <CenteredCard testId="signup-check-inbox">
        <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center' }}>
          <MarkEmailReadOutlined color="primary" sx={{ fontSize: 56 }} />
          <Typography variant="h5" component="h1">
            {t('signup.checkInboxTitle')}
          </Typography>
          <Typography>
            <Trans i18nKey="signup.checkInboxBody" values={{ email: context.email }} components={{ strong: <strong /> }} />
          </Typography>
          {context.startInInbox && <Alert severity="info">{t('signup.notVerifiedYet')}</Alert>}
          {context.resentCount > 0 && !context.error && (
            <Alert severity="success" data-testid="signup-resent">
              {t('signup.resent')}
            </Alert>
          )}
          <ErrorAlert error={context.error} testId="signup-error" />
          <Button variant="outlined" onClick={() => send({ type: 'RESEND' })} disabled={state.matches('resending')} data-testid="signup-resend">
            {t('signup.resend')}
          </Button>
          <Stack direction="row" spacing={2}>
            <Button onClick={() => send({ type: 'EDIT' })} data-testid="signup-edit">
              {t('signup.useAnotherEmail')}
            </Button>
            <Button component={RouterLink} to="/signin" data-testid="signup-to-signin">
              {t('signup.toSignIn')}
            </Button>
          </Stack>
        </Stack>
      </CenteredCard>
    );
  }

  const termsError = translateFieldError(t, context.fieldErrors.termsAccepted);
  return (
    <CenteredCard title={t('signup.title')} testId="signup-page">
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 1 }}>
        <LanguageSelect />
      </Box>
      <Box component="form" noValidate onSubmit={submit} aria-label={t('signup.title')}>
        <ErrorAlert error={context.error} testId="signup-error" />
        <SsoSignUpNotice reason={params.get('reason')} email={params.get('email') ?? ''} />
        <FormField
          name="email"
          type="email"
          autoComplete="email"
          label={t('fields.email')}
          value={email}
          onValue={setEmail}
          errorKey={context.fieldErrors.email}
          testId="signup-email"
          autoFocus
        />
        <FormField
          name="password"
          type="password"
          autoComplete="new-password"
          label={t('fields.password')}
          value={password}
          onValue={setPassword}
          errorKey={context.fieldErrors.password}
          hint={t('fields.passwordHint')}
          testId="signup-password"
        />
        <FormField
          name="passwordConfirmation"
          type="password"
          autoComplete="new-password"
          label={t('fields.passwordConfirmation')}
          value={passwordConfirmation}
          onValue={setPasswordConfirmation}
          errorKey={context.fieldErrors.passwordConfirmation}
          testId="signup-password-confirmation"
        />
        <FormControl error={Boolean(termsError)} sx={{ mt: 1 }}>
          <FormControlLabel
            control={
              <Checkbox
                checked={termsAccepted}
                onChange={(e) => setTermsAccepted(e.target.checked)}
                slotProps={{ input: { 'data-testid': 'signup-terms' } as React.InputHTMLAttributes<HTMLInputElement> }}
              />
            }
            label={
              <Trans
                i18nKey="signup.acceptTerms"
                components={{
                  terms: (
                    <Link
                      component="button"
                      type="button"
                      onClick={(e: React.MouseEvent) => {
                        e.preventDefault();
                        setTermsOpen(true);
                      }}
                      data-testid="signup-terms-open"
                      sx={{ verticalAlign: 'baseline' }}
                    />
                  ),
                }}
              />
            }
          />
          {termsError && <FormHelperText>{termsError}</FormHelperText>}
        </FormControl>
        <Button type="submit" variant="contained" fullWidth size="large" disabled={state.matches('submitting')} sx={{ mt: 2 }} data-testid="signup-submit">
          {t('signup.submit')}
        </Button>
        <SsoButtons from="signup" redirect="/welcome" termsAccepted={termsAccepted} />
        <Typography variant="body2" sx={{ textAlign: 'center', mt: 2 }}>
          <Link component={RouterLink} to="/signin" data-testid="signup-to-signin">
            {t('signup.haveAccount')}
          </Link>
        </Typography>
      </Box>
      <TermsDialog open={termsOpen} onClose={() => setTermsOpen(false)} />
    </CenteredCard>
  );
};
