import { changeEmailSchema, changePasswordSchema, SESSION_TIMEOUTS, usernameSchema, type SessionTimeout } from '@axel/domain/accounts/accounts.validation';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { toApiError, type NormalisedError } from '../../api/errors';
import type { UserInfo } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FormField } from '../../components/FormField';
import { LanguageSelect } from '../../components/LanguageSelect';
import { splitServerError } from '../../forms/serverErrors';
import { validate, type FieldErrors } from '../../forms/zodErrors';
import { noticeStore } from '../../session/notices';
import { sessionStore } from '../../session/store';
import { IpfsGatewaySection } from '../ipfs/IpfsGatewaySection';
import { TwoFactorSection } from '../two-factor/TwoFactorSection';
import { PassphraseSection } from '../e2ee/PassphraseSection';
import { PushSection } from '../push/PushSection';
import { settingsApi } from './settings.api';

export const Section = ({ title, children, testId }: { title: string; children: ReactNode; testId: string }) => (
  <Box component="section" aria-label={title} data-testid={testId} sx={{ py: 2 }}>
    <Typography variant="h6" component="h2" gutterBottom>
      {title}
    </Typography>
    {children}
  </Box>
);

/** Form state shared by the small forms of this tab. */
const useFormState = () => {
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<NormalisedError | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async <T,>(call: () => Promise<T>, codeFields: Record<string, string> = {}): Promise<T | undefined> => {
    setFieldErrors({});
    setError(null);
    setBusy(true);
    try {
      return await call();
    } catch (e) {
      const split = splitServerError(e, codeFields);
      setFieldErrors(split.fieldErrors);
      setError(split.error);
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { fieldErrors, setFieldErrors, error, busy, run };
};

const EmailChange = ({ user }: { user: UserInfo }) => {
  const { t } = useTranslation();
  const form = useFormState();
  const [newEmail, setNewEmail] = useState('');
  const [newEmailConfirmation, setNewEmailConfirmation] = useState('');
  const [password, setPassword] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSentTo(null);
    const v = validate(changeEmailSchema, { newEmail, newEmailConfirmation, password });
    if (!v.ok) return form.setFieldErrors(v.fieldErrors);
    if (v.value.newEmail === user.email.toLowerCase()) return form.setFieldErrors({ newEmail: 'errors.EMAIL_SAME_AS_CURRENT' });
    const body = v.value;
    const done = await form.run(
      async () => {
        await settingsApi.changeEmail(user.id, body);
        return true;
      },
      { WRONG_PASSWORD: 'password', EMAIL_SAME_AS_CURRENT: 'newEmail', EMAIL_EXISTS: 'newEmail' },
    );
    setPassword('');
    if (done) {
      setSentTo(body.newEmail);
      setNewEmail('');
      setNewEmailConfirmation('');
    }
  };

  return (
    <Section title={t('account.email.title')} testId="account-email">
      <Typography color="text.secondary">{t('account.email.current', { email: user.email })}</Typography>
      <Box component="form" noValidate onSubmit={(e) => void submit(e)} aria-label={t('account.email.title')}>
        {sentTo && (
          <Alert severity="success" sx={{ mt: 2 }} data-testid="email-change-sent">
            {t('account.email.sent', { email: sentTo })}
          </Alert>
        )}
        <ErrorAlert error={form.error} testId="email-change-error" />
        <FormField
          name="newEmail"
          type="email"
          autoComplete="email"
          label={t('fields.newEmail')}
          value={newEmail}
          onValue={setNewEmail}
          errorKey={form.fieldErrors.newEmail}
          testId="email-change-new"
        />
        <FormField
          name="newEmailConfirmation"
          type="email"
          autoComplete="email"
          label={t('fields.newEmailConfirmation')}
          value={newEmailConfirmation}
          onValue={setNewEmailConfirmation}
          errorKey={form.fieldErrors.newEmailConfirmation}
          testId="email-change-confirmation"
        />
        <FormField
          name="password"
          type="password"
          autoComplete="current-password"
          label={t('fields.currentPassword')}
          value={password}
          onValue={setPassword}
          errorKey={form.fieldErrors.password}
          testId="email-change-password"
        />
        <Button type="submit" variant="contained" disabled={form.busy} sx={{ mt: 1 }} data-testid="email-change-submit">
          {t('account.email.submit')}
        </Button>
      </Box>
    </Section>
  );
};

const usernameForm = z.object({ username: usernameSchema });

const UsernameForm = ({ user }: { user: UserInfo }) => {
  const { t } = useTranslation();
  const form = useFormState();
  const [username, setUsername] = useState(user.username ?? '');

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const v = validate(usernameForm, { username });
    if (!v.ok) return form.setFieldErrors(v.fieldErrors);
    const updated = await form.run(() => settingsApi.saveAccount(user.id, { username: v.value.username }), { USERNAME_TAKEN: 'username' });
    if (updated) {
      sessionStore.signedIn(updated);
      noticeStore.push({ severity: 'success', key: 'account.username.saved' });
    }
  };

  return (
    <Section title={t('account.username.title')} testId="account-username">
      <Box component="form" noValidate onSubmit={(e) => void submit(e)} aria-label={t('account.username.title')}>
        <ErrorAlert error={form.error} testId="username-error" />
        <FormField
          name="username"
          autoComplete="username"
          label={t('fields.username')}
          value={username}
          onValue={setUsername}
          errorKey={form.fieldErrors.username}
          hint={t('account.username.hint')}
          testId="username-input"
        />
        <Button type="submit" variant="contained" disabled={form.busy} sx={{ mt: 1 }} data-testid="username-save">
          {t('common.save')}
        </Button>
      </Box>
    </Section>
  );
};

const PasswordChange = ({ user }: { user: UserInfo }) => {
  const { t } = useTranslation();
  const form = useFormState();
  const [currentPassword, setCurrentPassword] = useState('');
  const [password, setPassword] = useState('');
  const [passwordConfirmation, setPasswordConfirmation] = useState('');

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const v = validate(changePasswordSchema, { currentPassword, password, passwordConfirmation });
    if (!v.ok) return form.setFieldErrors(v.fieldErrors);
    const body = v.value;
    const done = await form.run(
      async () => {
        await settingsApi.changePassword(user.id, body);
        return true;
      },
      { WRONG_PASSWORD: 'currentPassword', PASSWORD_SAME_AS_CURRENT: 'password' },
    );
    if (done) {
      setCurrentPassword('');
      setPassword('');
      setPasswordConfirmation('');
      noticeStore.push({ severity: 'success', key: 'account.password.saved' });
    }
  };

  return (
    <Section title={t('account.password.title')} testId="account-password">
      <Box component="form" noValidate onSubmit={(e) => void submit(e)} aria-label={t('account.password.title')}>
        <ErrorAlert error={form.error} testId="password-change-error" />
        <FormField
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          label={t('fields.currentPassword')}
          value={currentPassword}
          onValue={setCurrentPassword}
          errorKey={form.fieldErrors.currentPassword}
          testId="password-change-current"
        />
        <FormField
          name="password"
          type="password"
          autoComplete="new-password"
          label={t('fields.newPassword')}
          value={password}
          onValue={setPassword}
          errorKey={form.fieldErrors.password}
          hint={t('fields.passwordHint')}
          testId="password-change-new"
        />
        <FormField
          name="passwordConfirmation"
          type="password"
          autoComplete="new-password"
          label={t('fields.passwordConfirmation')}
          value={passwordConfirmation}
          onValue={setPasswordConfirmation}
          errorKey={form.fieldErrors.passwordConfirmation}
          testId="password-change-confirmation"
        />
        <Button type="submit" variant="contained" disabled={form.busy} sx={{ mt: 1 }} data-testid="password-change-submit">
          {t('account.password.submit')}
        </Button>
      </Box>
    </Section>
  );
};

const TIMEOUT_LABEL_KEYS: Record<SessionTimeout, string> = {
  900: 'account.timeout.options.900',
  1800: 'account.timeout.options.1800',
  3600: 'account.timeout.options.3600',
  14400: 'account.timeout.options.14400',
  86400: 'account.timeout.options.86400',
  2592000: 'account.timeout.options.2592000',
};

const SessionTimeoutSelect = ({ user }: { user: UserInfo }) => {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<NormalisedError | null>(null);

  const change = async (value: number) => {
    if (!(SESSION_TIMEOUTS as readonly number[]).includes(value)) return;
    setBusy(true);
    setError(null);
    try {
      sessionStore.signedIn(await settingsApi.saveAccount(user.id, { sessionTimeout: value as SessionTimeout }));
      noticeStore.push({ severity: 'success', key: 'account.timeout.saved' });
    } catch (e) {
      setError(toApiError(e).toJSON());
    } finally {
      setBusy(false);
    }
  };

  return (
    <Section title={t('account.timeout.title')} testId="account-timeout">
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('account.timeout.intro')}
      </Typography>
      <TextField
        select
        id="session-timeout"
        label={t('fields.sessionTimeout')}
        value={String(user.sessionTimeout)}
        onChange={(e) => void change(Number(e.target.value))}
        disabled={busy}
        margin="none"
        sx={{ maxWidth: 320 }}
        slotProps={{ select: { native: true }, htmlInput: { 'data-testid': 'session-timeout-select' } }}
      >
        {SESSION_TIMEOUTS.map((s) => (
          <option key={s} value={String(s)}>
            {t(TIMEOUT_LABEL_KEYS[s])}
          </option>
        ))}
      </TextField>
      <ErrorAlert error={error} testId="session-timeout-error" />
    </Section>
  );
};

export const AccountTab = ({ user }: { user: UserInfo }) => {
  const { t } = useTranslation();
  return (
    <Stack divider={<Divider flexItem />} data-testid="settings-account">
      <EmailChange user={user} />
      <UsernameForm user={user} />
      <PasswordChange user={user} />
      <SessionTimeoutSelect user={user} />
      <IpfsGatewaySection userId={user.id} />
      <TwoFactorSection key={`${user.twoFactor.enabled}:${user.twoFactor.method ?? ''}`} user={user} />
      <PassphraseSection user={user} />
      <PushSection user={user} />
      <Section title={t('account.language.title')} testId="account-language">
        <LanguageSelect size="medium" />
      </Section>
    </Stack>
  );
};
