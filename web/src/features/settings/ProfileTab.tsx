import { AVATAR_MAX_BYTES, AVATAR_MIME_TYPES, PROFILE_FIELDS, profileSchema, type Profile } from '@axel/domain/accounts/accounts.validation';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toApiError, type NormalisedError } from '../../api/errors';
import type { UserInfo } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FormField } from '../../components/FormField';
import { useLoad } from '../../components/useLoad';
import { splitServerError } from '../../forms/serverErrors';
import { validate, type FieldErrors } from '../../forms/zodErrors';
import { noticeStore } from '../../session/notices';
import { sessionStore } from '../../session/store';
import { settingsApi } from './settings.api';

type Values = Record<keyof Profile, string>;

const emptyValues = (): Values => Object.fromEntries(PROFILE_FIELDS.map((f) => [f, ''])) as Values;
const toValues = (p: Partial<Profile>): Values => Object.fromEntries(PROFILE_FIELDS.map((f) => [f, p[f] ?? ''])) as Values;

const INPUT_TYPES: Partial<Record<keyof Profile, string>> = { contactEmail: 'email', phone: 'tel', businessPhone: 'tel', website: 'url' };
const AUTOCOMPLETE: Partial<Record<keyof Profile, string>> = {
  firstName: 'given-name',
  lastName: 'family-name',
  contactEmail: 'email',
  phone: 'tel',
  city: 'address-level2',
  addressLine1: 'address-line1',
  addressLine2: 'address-line2',
  state: 'address-level1',
  zip: 'postal-code',
  company: 'organization',
  website: 'url',
};

/** The avatar rule of the specification: an image, not empty, at most 3 MB. */
export const checkAvatar = (file: { type: string; size: number }): string | null => {
  if (!(AVATAR_MIME_TYPES as readonly string[]).includes(file.type) || file.size === 0) return 'AVATAR_INVALID';
  if (file.size > AVATAR_MAX_BYTES) return 'AVATAR_TOO_LARGE';
  return null;
};

const AvatarUpload = ({ user }: { user: UserInfo }) => {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<NormalisedError | null>(null);

  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    const problem = checkAvatar(file);
    if (problem) {
      setError({ code: problem, message: problem, data: null });
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const { avatarUrl } = await settingsApi.uploadAvatar(user.id, file, file.type);
      sessionStore.updateUser({ avatarUrl });
      noticeStore.push({ severity: 'success', key: 'profile.avatarSaved' });
    } catch (err) {
      setError(toApiError(err).toJSON());
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2 }}>
      <Avatar src={user.avatarUrl ?? undefined} alt={t('profile.avatar')} sx={{ width: 72, height: 72 }} data-testid="profile-avatar">
        {user.email.slice(0, 1).toUpperCase()}
      </Avatar>
      <Box>
        <input
          ref={input}
          id="avatar-file"
          type="file"
          accept={AVATAR_MIME_TYPES.join(',')}
          hidden
          aria-label={t('profile.avatarInput')}
          onChange={(e) => void onFile(e)}
          data-testid="avatar-input"
        />
        <Button variant="outlined" onClick={() => input.current?.click()} disabled={busy} data-testid="avatar-upload">
          {busy ? <CircularProgress size={20} aria-label={t('common.loading')} /> : t('profile.avatarUpload')}
        </Button>
        <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 0.5 }}>
          {t('profile.avatarHint')}
        </Typography>
        <ErrorAlert error={error} testId="avatar-error" />
      </Box>
    </Stack>
  );
};

export const ProfileTab = ({ user }: { user: UserInfo }) => {
  const { t } = useTranslation();
  const profile = useLoad(() => settingsApi.profile(user.id), [user.id]);
  // what the user typed or the last save answered; until then the profile as loaded
  const [edited, setEdited] = useState<Values | null>(null);
  const values = edited ?? (profile.data ? toValues(profile.data) : emptyValues());
  const loading = profile.data === undefined && profile.error === null;
  const [busy, setBusy] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  // undefined until the first save: the load's error shows until then
  const [saveError, setSaveError] = useState<NormalisedError | null>();
  const error = saveError === undefined ? profile.error : saveError;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const v = validate(profileSchema, values);
    if (!v.ok) return setFieldErrors(v.fieldErrors);
    setFieldErrors({});
    setSaveError(null);
    setBusy(true);
    try {
      setEdited(toValues(await settingsApi.saveProfile(user.id, v.value)));
      noticeStore.push({ severity: 'success', key: 'profile.saved' });
    } catch (err) {
      const split = splitServerError(err);
      setFieldErrors(split.fieldErrors);
      setSaveError(split.error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box data-testid="settings-profile">
      <Typography variant="h6" component="h2" gutterBottom>
        {t('profile.title')}
      </Typography>
      <AvatarUpload user={user} />
      {loading ? (
        <Stack sx={{ alignItems: 'center', py: 4 }}>
          <CircularProgress aria-label={t('common.loading')} />
        </Stack>
      ) : (
        <Box component="form" noValidate onSubmit={(e) => void submit(e)} aria-label={t('profile.title')}>
          <ErrorAlert error={error} testId="profile-error" />
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 2 }}>
            {PROFILE_FIELDS.map((field) => (
              <FormField
                key={field}
                name={field}
                type={INPUT_TYPES[field] ?? 'text'}
                autoComplete={AUTOCOMPLETE[field] ?? 'off'}
                label={t(`profile.fields.${field}`)}
                value={values[field]}
                onValue={(v) => setEdited({ ...values, [field]: v })}
                errorKey={fieldErrors[field]}
                testId={`profile-${field}`}
              />
            ))}
          </Box>
          <Button type="submit" variant="contained" disabled={busy} sx={{ mt: 2 }} data-testid="profile-save">
            {t('common.save')}
          </Button>
        </Box>
      )}
    </Box>
  );
};
