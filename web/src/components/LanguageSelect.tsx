import TextField from '@mui/material/TextField';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toApiError } from '../api/errors';
import { readableId } from './FormField';
import { applyLocale, currentLocale } from '../i18n';
import { isLocale, LOCALE_NAMES, LOCALES, type Locale } from '../i18n/language';
import { noticeStore } from '../session/notices';
import { sessionApi } from '../session/session.api';
import { sessionStore, useSession } from '../session/store';

/**
 * Switches the interface language. Signed in, the choice is also saved on the account
 * (PUT /users/:id/account { locale }) so it follows the user to other devices.
 */
export const LanguageSelect = ({ size = 'small', fullWidth = false }: { size?: 'small' | 'medium'; fullWidth?: boolean }) => {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const [busy, setBusy] = useState(false);
  const value = isLocale(i18n.language) ? i18n.language : currentLocale();
  const id = readableId('language-select', useId());

  const change = async (locale: Locale) => {
    const previous = value;
    await applyLocale(locale);
    if (!user) return;
    setBusy(true);
    try {
      sessionStore.signedIn(await sessionApi.setLocale(user.id, locale));
    } catch (e) {
      await applyLocale(previous);
      const error = toApiError(e);
      noticeStore.push({ severity: 'error', key: `errors.${error.code}`, values: { defaultValue: error.message } });
    } finally {
      setBusy(false);
    }
  };

  return (
    <TextField
      select
      id={id}
      label={t('common.language')}
      value={value}
      disabled={busy}
      size={size}
      fullWidth={fullWidth}
      margin="none"
      sx={{ minWidth: 200 }}
      onChange={(e) => {
        if (isLocale(e.target.value)) void change(e.target.value);
      }}
      slotProps={{ select: { native: true }, htmlInput: { 'data-testid': 'language-select' } }}
    >
      {LOCALES.map((l) => (
        <option key={l} value={l} lang={l.replace('_', '-')}>
          {LOCALE_NAMES[l]}
        </option>
      ))}
    </TextField>
  );
};
