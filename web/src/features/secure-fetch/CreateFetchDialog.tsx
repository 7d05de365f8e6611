import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useMachine } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { ErrorAlert } from '../../components/ErrorAlert';
import { translateFieldError } from '../../components/i18nHelpers';
import { DEFAULT_CREATE_VALUES, fetchCreateMachine } from './fetch-create.machine';
import { fetchCost } from './fetch-pay.machine';
import { secureFetchApi, uploadPageUrl, type SecureFetch } from './secure-fetch.api';
import { HASH_CHOICES, NOTE_MAX_LENGTH, type CreateValues } from './secure-fetch.validation';
import { CopyableLink as LinkField } from '../../components/CopyableLink';

/** The upload page's address with a copy button. */
export const CopyableLink = ({ url, testId }: { url: string; testId: string }) => {
  const { t } = useTranslation();
  return (
    <LinkField
      url={url}
      testId={testId}
      fullWidth
      size="small"
      labels={{ link: t('secureFetch.link'), copy: t('secureFetch.copy'), copied: t('secureFetch.copied') }}
    />
  );
};

/** The create dialog of spec §3 Secure Fetch: note (required), expiry, include metadata, certificate and its hash choice. */
export const CreateFetchDialog = ({
  userId,
  open,
  onClose,
  onCreated,
}: {
  userId: string;
  open: boolean;
  onClose: () => void;
  onCreated: (created: SecureFetch) => void;
}) => {
  const { t } = useTranslation();
  const [values, setValues] = useState<CreateValues>(DEFAULT_CREATE_VALUES);
  const [state, send] = useMachine(
    fetchCreateMachine.provide({
      actors: { create: fromPromise(({ input }) => secureFetchApi.create(userId, input)) },
    }),
    { input: {} },
  );
  const { fieldErrors, error, created } = state.context;
  const creating = state.matches('creating');
  const close = () => {
    if (created) onCreated(created);
    send({ type: 'RESET' });
    setValues(DEFAULT_CREATE_VALUES);
    onClose();
  };
  const set = <K extends keyof CreateValues>(key: K, value: CreateValues[K]) => setValues((v) => ({ ...v, [key]: value }));

  return (
    <Dialog open={open} onClose={creating ? undefined : close} fullWidth maxWidth="sm" data-testid="fetch-create-dialog">
      <DialogTitle>{created ? t('secureFetch.create.createdTitle') : t('secureFetch.create.title')}</DialogTitle>
      <DialogContent>
        {created ? (
          <Stack spacing={2} sx={{ pt: 1 }} data-testid="fetch-created">
            <Alert severity="success">{t('secureFetch.create.createdText')}</Alert>
            <CopyableLink url={uploadPageUrl(created.shareLinkId)} testId="fetch-created-link" />
          </Stack>
        ) : (
          <Stack spacing={2} sx={{ pt: 1 }} component="form" noValidate onSubmit={(e) => (e.preventDefault(), send({ type: 'SUBMIT', values }))}>
            <ErrorAlert error={error} testId="fetch-create-error" />
            <TextField
              label={t('secureFetch.create.note')}
              required
              multiline
              minRows={2}
              value={values.note}
              onChange={(e) => set('note', e.target.value)}
              error={Boolean(fieldErrors.note)}
              helperText={translateFieldError(t, fieldErrors.note) ?? t('secureFetch.create.noteHint', { max: NOTE_MAX_LENGTH })}
              slotProps={{ htmlInput: { 'data-testid': 'fetch-create-note' } }}
            />
            <TextField
              label={t('secureFetch.create.expiresAt')}
              type="datetime-local"
              value={values.expiresAt}
              onChange={(e) => set('expiresAt', e.target.value)}
              error={Boolean(fieldErrors.expiresAt)}
              helperText={translateFieldError(t, fieldErrors.expiresAt) ?? t('secureFetch.create.expiresHint')}
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'fetch-create-expires' } }}
            />
            <FormControlLabel
              control={
                <Switch
                  checked={values.includeMetadata}
                  onChange={(e) => set('includeMetadata', e.target.checked)}
                  slotProps={{ input: { 'data-testid': 'fetch-create-metadata' } as object }}
                />
              }
              label={t('secureFetch.create.includeMetadata')}
            />
            <FormControlLabel
              control={
                <Switch
                  checked={values.certificate}
                  onChange={(e) => set('certificate', e.target.checked)}
                  slotProps={{ input: { 'data-testid': 'fetch-create-certificate' } as object }}
                />
              }
              label={t('secureFetch.create.certificate', { cost: fetchCost(values.certificate) })}
            />
            {values.certificate && (
              <FormGroup>
                <FormLabel>{t('secureFetch.create.hashChoice')}</FormLabel>
                <Stack direction="row">
                  {HASH_CHOICES.map((h) => (
                    <FormControlLabel
                      key={h}
                      control={
                        <Checkbox
                          checked={values.hashChoice.includes(h)}
                          onChange={(e) =>
                            set(
                              'hashChoice',
                              e.target.checked
                                ? HASH_CHOICES.filter((x) => x === h || values.hashChoice.includes(x))
                                : values.hashChoice.filter((x) => x !== h),
                            )
                          }
                          slotProps={{ input: { 'data-testid': `fetch-create-hash-${h}` } as object }}
                        />
                      }
                      label={t(`secureFetch.hashChoice.${h}`)}
                    />
                  ))}
                </Stack>
                {fieldErrors.hashChoice && <FormHelperText error>{translateFieldError(t, fieldErrors.hashChoice)}</FormHelperText>}
              </FormGroup>
            )}
            <button type="submit" hidden />
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        {created ? (
          <Button variant="contained" onClick={close} data-testid="fetch-created-close">
            {t('common.close')}
          </Button>
        ) : (
          <>
            <Button onClick={close} disabled={creating}>
              {t('common.cancel')}
            </Button>
            <Button variant="contained" disabled={creating} onClick={() => send({ type: 'SUBMIT', values })} data-testid="fetch-create-submit">
              {t('secureFetch.create.submit')}
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
};
