import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { NormalisedError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FormField } from '../../components/FormField';
import { splitServerError } from '../../forms/serverErrors';
import type { FieldErrors } from '../../forms/zodErrors';
import { sharingApi } from './sharing.api';
import type { Share } from './sharing.types';
import { expiryDateOf, validateShareEdit, type ShareEditValues } from './sharing.validation';
import { SHARE_FIELD_CODES } from './share-create.machine';

const Body = ({ share, onClose, onSaved }: { share: Share; onClose: () => void; onSaved: (share: Share) => void }) => {
  const { t } = useTranslation();
  const [values, setValues] = useState<ShareEditValues>({
    title: share.title,
    description: share.description ?? '',
    expiresOn: expiryDateOf(share.expiresAt),
    downloadable: share.downloadable,
    requireLogin: share.requireLogin,
    password: '',
    removePassword: false,
  });
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<NormalisedError | null>(null);
  const [busy, setBusy] = useState(false);
  const set =
    <K extends keyof ShareEditValues>(k: K) =>
    (v: ShareEditValues[K]) =>
      setValues((o) => ({ ...o, [k]: v }));
  const isPrivate = share.kind === 'private';

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const result = validateShareEdit(values, isPrivate);
    if (!result.ok) {
      setFieldErrors(result.fieldErrors);
      return;
    }
    setFieldErrors({});
    setError(null);
    setBusy(true);
    sharingApi
      .edit(share.id, result.value)
      .then(onSaved)
      .catch((raw: unknown) => {
        const split = splitServerError(raw, SHARE_FIELD_CODES);
        setFieldErrors(split.fieldErrors);
        setError(split.error);
      })
      .finally(() => setBusy(false));
  };

  return (
    <form onSubmit={submit} noValidate>
      <DialogTitle>{t('sharing.edit.title')}</DialogTitle>
      <DialogContent>
        <FormField
          name="title"
          label={t('sharing.fields.title')}
          value={values.title}
          onValue={set('title')}
          errorKey={fieldErrors.title}
          testId="edit-title"
          required
        />
        <FormField
          name="description"
          label={t('sharing.fields.description')}
          value={values.description}
          onValue={set('description')}
          errorKey={fieldErrors.description}
          testId="edit-description"
          multiline
          minRows={2}
        />
        <FormField
          name="expiresOn"
          type="date"
          label={t('sharing.fields.expiresOn')}
          value={values.expiresOn}
          onValue={set('expiresOn')}
          errorKey={fieldErrors.expiresOn}
          hint={t('sharing.dialog.expiryHint')}
          testId="edit-expires"
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <FormField
          name="password"
          type="password"
          autoComplete="new-password"
          label={t('sharing.edit.newPassword')}
          value={values.password}
          onValue={set('password')}
          errorKey={fieldErrors.password}
          hint={share.hasPassword ? t('sharing.edit.passwordKept') : t('sharing.dialog.passwordHint')}
          testId="edit-password"
          disabled={values.removePassword}
        />
        {share.hasPassword && !isPrivate && (
          <FormControlLabel
            control={<Checkbox checked={values.removePassword} onChange={(e) => set('removePassword')(e.target.checked)} />}
            label={t('sharing.edit.removePassword')}
          />
        )}
        <FormControlLabel
          control={<Switch checked={values.downloadable} onChange={(e) => set('downloadable')(e.target.checked)} />}
          label={t('sharing.fields.downloadable')}
        />
        <FormControlLabel
          control={<Switch checked={values.requireLogin} onChange={(e) => set('requireLogin')(e.target.checked)} />}
          label={t('sharing.fields.requireLogin')}
        />
        <ErrorAlert error={error} testId="edit-error" />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button type="submit" variant="contained" disabled={busy} data-testid="edit-submit">
          {t('common.save')}
        </Button>
      </DialogActions>
    </form>
  );
};

/** Editing a share: title, description, expiry, view-only or downloadable, password, sign-in. */
export const ShareEditDialog = ({ share, onClose, onSaved }: { share: Share | null; onClose: () => void; onSaved: (share: Share) => void }) => (
  <Dialog open={share !== null} onClose={onClose} fullWidth maxWidth="sm" data-testid="share-edit-dialog">
    {share && <Body share={share} onClose={onClose} onSaved={onSaved} />}
  </Dialog>
);
