import { passphraseProblems, type PassphraseProblem } from '@axel/domain/e2ee/e2ee.rules';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toApiError, type NormalisedError } from '../../api/errors';
import type { UserInfo } from '../../api/types';
import { useLoad } from '../../components/useLoad';
import { e2eeCrypto } from './crypto';
import { e2eeApi } from './e2ee.api';

type Field = 'current' | 'passphrase' | 'confirmation' | 'hint';
const FIELD_OF: Record<PassphraseProblem, Field> = {
  required: 'passphrase',
  tooShort: 'passphrase',
  hintRequired: 'hint',
  hintRevealsPassphrase: 'hint',
  mismatch: 'confirmation',
  sameAsCurrent: 'passphrase',
};

/**
 * Settings: the end-to-end passphrase (spec §5: at least 8 characters, a hint, the confirmation,
 * case sensitive, a new one differs from the current one). Setting it makes a key pair in the
 * crypto worker; changing it re-protects the same key there, so every file stays readable. The
 * server receives only the key locked by the passphrase, and the hint.
 */
export const PassphraseSection = ({ user }: { user: Pick<UserInfo, 'id' | 'email'> }) => {
  const { t } = useTranslation();
  const settings = useLoad(() => e2eeApi.get(user.id), [user.id]);
  const [values, setValues] = useState<Record<Field, string>>({ current: '', passphrase: '', confirmation: '', hint: '' });
  const [problems, setProblems] = useState<PassphraseProblem[]>([]);
  const [error, setError] = useState<NormalisedError | null>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const s = settings.data;
  if (!s) return null;
  const changing = s.passphraseSet;

  const field = (name: Field) => {
    const problem = problems.find((p) => FIELD_OF[p] === name);
    return {
      value: values[name],
      onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [name]: e.target.value })),
      error: !!problem,
      helperText: problem ? t(`e2ee.problems.${problem}`) : name === 'passphrase' ? t('e2ee.rules') : ' ',
      fullWidth: true,
      margin: 'dense' as const,
    };
  };

  const submit = async () => {
    setSaved(false);
    setError(null);
    const found = passphraseProblems({ ...values, ...(changing ? { current: values.current } : {}) });
    setProblems(found);
    if (found.length) return;
    setBusy(true);
    try {
      const privateKey = changing
        ? await e2eeCrypto.changePassphrase(s.e2eePrivateKey!, values.current, values.passphrase)
        : (await e2eeCrypto.generate(values.passphrase, user.email)).privateKey;
      await e2eeApi.setKey(user.id, { mode: changing ? 'change' : 'set', privateKey, hint: values.hint.trim() });
      setValues({ current: '', passphrase: '', confirmation: '', hint: '' });
      setSaved(true);
      settings.reload();
    } catch (e) {
      setError(toApiError(e).toJSON());
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box component="section" aria-labelledby="e2ee-title" sx={{ mt: 4 }} data-testid="e2ee-section">
      <Typography variant="h6" component="h2" id="e2ee-title">
        {t('e2ee.title')}
      </Typography>
      {!s.hasE2EEAccess && !changing ? (
        <Alert severity="info" data-testid="e2ee-no-access">
          {t('e2ee.noAccess')}
        </Alert>
      ) : (
        <Box
          component="form"
          noValidate
          sx={{ maxWidth: 480 }}
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <Typography variant="body2" color="text.secondary">
            {changing ? t('e2ee.changeIntro', { hint: s.e2eePassphraseHint ?? '' }) : t('e2ee.setIntro')}
          </Typography>
          {changing && (
            <TextField
              {...field('current')}
              type="password"
              label={t('e2ee.current')}
              autoComplete="off"
              slotProps={{ htmlInput: { 'data-testid': 'e2ee-current' } }}
            />
          )}
          <TextField
            {...field('passphrase')}
            type="password"
            label={t(changing ? 'e2ee.new' : 'e2ee.passphrase')}
            autoComplete="new-password"
            slotProps={{ htmlInput: { 'data-testid': 'e2ee-passphrase' } }}
          />
          <TextField
            {...field('confirmation')}
            type="password"
            label={t('e2ee.confirmation')}
            autoComplete="new-password"
            slotProps={{ htmlInput: { 'data-testid': 'e2ee-confirmation' } }}
          />
          <TextField {...field('hint')} label={t('e2ee.hint')} slotProps={{ htmlInput: { maxLength: 255, 'data-testid': 'e2ee-hint' } }} />
          {error && (
            <Alert severity="error" sx={{ mt: 1 }} data-testid="e2ee-error">
              {t(`e2ee.errors.${error.code}`, { defaultValue: t(`errors.${error.code}`, { defaultValue: error.message }) })}
            </Alert>
          )}
          {saved && (
            <Alert severity="success" sx={{ mt: 1 }} data-testid="e2ee-saved">
              {t('e2ee.saved')}
            </Alert>
          )}
          <Button type="submit" variant="contained" sx={{ mt: 1 }} disabled={busy} data-testid="e2ee-submit">
            {busy ? t('e2ee.working') : t(changing ? 'e2ee.change' : 'e2ee.set')}
          </Button>
          {changing && (
            <FormControlLabel
              sx={{ display: 'flex', mt: 2 }}
              control={
                <Switch
                  checked={s.encryptionDefault}
                  onChange={(e) =>
                    void e2eeApi
                      .setDefaults(user.id, { encryptionDefault: e.target.checked })
                      .then(settings.reload, (err: unknown) => setError(toApiError(err).toJSON()))
                  }
                  slotProps={{ input: { 'aria-label': t('e2ee.defaultSwitch') } }}
                  data-testid="e2ee-default"
                />
              }
              label={t('e2ee.defaultSwitch')}
            />
          )}
        </Box>
      )}
    </Box>
  );
};
