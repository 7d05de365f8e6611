import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Switch from '@mui/material/Switch';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useMachine } from '@xstate/react';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { fromPromise } from 'xstate';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FormField } from '../../components/FormField';
import { sharingApi } from './sharing.api';
import type { Share, ShareInput } from './sharing.types';
import { MAX_RECIPIENTS, splitAddresses, type ShareFormValues } from './sharing.validation';
import { shareCreateMachine, type PlanCount } from './share-create.machine';
import { CopyableLink as LinkField } from '../../components/CopyableLink';

/** The share's link with a copy button. */
export const CopyableLink = ({ url, testId = 'share-link' }: { url: string; testId?: string }) => {
  const { t } = useTranslation();
  return <LinkField url={url} testId={testId} labels={{ link: t('sharing.link'), copy: t('sharing.copy'), copied: t('sharing.copied') }} />;
};

const Toggle = ({
  label,
  checked,
  onChange,
  testId,
  hint,
}: {
  label: string;
  checked: boolean;
  onChange: (v: boolean) => void;
  testId: string;
  hint?: string;
}) => (
  <Box>
    <FormControlLabel
      control={<Switch checked={checked} onChange={(e) => onChange(e.target.checked)} slotProps={{ input: { 'data-testid': testId } as object }} />}
      label={label}
    />
    {hint && (
      <Typography variant="caption" color="text.secondary" component="div" sx={{ ml: 6, mt: -1 }}>
        {hint}
      </Typography>
    )}
  </Box>
);

const ShareDialogBody = ({
  itemIds,
  title,
  ownEmail,
  onClose,
  onCreated,
}: {
  itemIds: string[];
  title: string;
  ownEmail: string;
  onClose: () => void;
  onCreated?: (share: Share) => void;
}) => {
  const { t } = useTranslation();
  const machine = useMemo(
    () =>
      shareCreateMachine.provide({
        actors: {
          create: fromPromise<Share, ShareInput>(({ input }) => sharingApi.create(input)),
          loadUsage: fromPromise<PlanCount>(() => sharingApi.planCount()),
        },
      }),
    [],
  );
  const [state, send] = useMachine(machine, { input: { itemIds, title, ownEmail } });
  const [values, setValues] = useState<ShareFormValues>(state.context.values);
  const { fieldErrors, error, share, usage } = state.context;
  const busy = state.matches('creating');
  useEffect(() => {
    if (share) onCreated?.(share);
  }, [share, onCreated]);

  const set =
    <K extends keyof ShareFormValues>(field: K) =>
    (value: ShareFormValues[K]) =>
      setValues((v) => ({ ...v, [field]: value }));
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send({ type: 'SUBMIT', values });
  };

  if (share) {
    return (
      <>
        <DialogTitle>{t('sharing.dialog.createdTitle')}</DialogTitle>
        <DialogContent data-testid="share-created">
          <Alert severity="success" sx={{ mb: 2 }}>
            {share.kind === 'private' ? t('sharing.dialog.createdPrivate', { count: share.recipients?.length ?? 0 }) : t('sharing.dialog.createdPublic')}
          </Alert>
          <CopyableLink url={share.url} />
        </DialogContent>
        <DialogActions>
          <Button component={RouterLink} to={`/files/shares/${encodeURIComponent(share.id)}`} data-testid="share-open-mine">
            {t('sharing.dialog.openMine')}
          </Button>
          <Button variant="contained" onClick={onClose} data-testid="share-done">
            {t('common.close')}
          </Button>
        </DialogActions>
      </>
    );
  }

  const isPrivate = values.kind === 'private';
  const recipientCount = splitAddresses(values.recipients).length;
  const upgrade = (
    <Button component={RouterLink} to="/storages/plans" color="inherit" size="small" data-testid="share-upgrade">
      {t('sharing.dialog.upgrade')}
    </Button>
  );
  return (
    <form onSubmit={onSubmit} noValidate>
      <DialogTitle>{t('sharing.dialog.title', { count: itemIds.length })}</DialogTitle>
      <DialogContent>
        {/* the plan's monthly shares, before anything is filled in */}
        {usage && (
          <Alert
            severity={usage.reached ? 'warning' : 'info'}
            sx={{ mb: 2 }}
            action={usage.limit !== null ? upgrade : undefined}
            data-testid="share-usage"
            data-count={usage.count}
            data-limit={usage.limit ?? ''}
          >
            {usage.limit === null
              ? t('sharing.dialog.usageUnlimited', { count: usage.count })
              : usage.reached
                ? t('sharing.dialog.usageReached', { limit: usage.limit })
                : t('sharing.dialog.usage', { count: usage.count, limit: usage.limit, left: usage.left })}
          </Alert>
        )}
        <ToggleButtonGroup
          exclusive
          fullWidth
          size="small"
          value={values.kind}
          onChange={(_, v: ShareFormValues['kind'] | null) => v && set('kind')(v)}
          aria-label={t('sharing.dialog.kind')}
          sx={{ mb: 1 }}
        >
          <ToggleButton value="public" data-testid="share-kind-public">
            {t('sharing.kind.public')}
          </ToggleButton>
          <ToggleButton value="private" data-testid="share-kind-private">
            {t('sharing.kind.private')}
          </ToggleButton>
        </ToggleButtonGroup>
        <Typography variant="caption" color="text.secondary" component="p">
          {isPrivate ? t('sharing.dialog.privateHint', { max: MAX_RECIPIENTS }) : t('sharing.dialog.publicHint')}
        </Typography>
        <FormField
          name="title"
          label={t('sharing.fields.title')}
          value={values.title}
          onValue={set('title')}
          errorKey={fieldErrors.title}
          testId="share-title"
          required
        />
        <FormField
          name="description"
          label={t('sharing.fields.description')}
          value={values.description}
          onValue={set('description')}
          errorKey={fieldErrors.description}
          testId="share-description"
          multiline
          minRows={2}
        />
        {isPrivate && (
          <>
            <FormField
              name="recipients"
              label={t('sharing.fields.recipients')}
              value={values.recipients}
              onValue={set('recipients')}
              errorKey={fieldErrors.recipients}
              hint={
                recipientCount > 0
                  ? `${t('sharing.dialog.recipientsCount', { count: recipientCount, max: MAX_RECIPIENTS })} · ${t('sharing.dialog.recipientsHint', { max: MAX_RECIPIENTS })}`
                  : t('sharing.dialog.recipientsHint', { max: MAX_RECIPIENTS })
              }
              testId="share-recipients"
              multiline
              required
            />
            <FormField
              name="message"
              label={t('sharing.fields.message')}
              value={values.message}
              onValue={set('message')}
              errorKey={fieldErrors.message}
              testId="share-message"
              multiline
              minRows={2}
              required
            />
          </>
        )}
        <FormField
          name="password"
          type="password"
          autoComplete="new-password"
          label={t('sharing.fields.password')}
          value={values.password}
          onValue={set('password')}
          errorKey={fieldErrors.password}
          hint={isPrivate ? t('sharing.dialog.passwordRequiredHint') : t('sharing.dialog.passwordHint')}
          testId="share-password"
          required={isPrivate}
        />
        <FormField
          name="expiresOn"
          type="date"
          label={t('sharing.fields.expiresOn')}
          value={values.expiresOn}
          onValue={set('expiresOn')}
          errorKey={fieldErrors.expiresOn}
          hint={t('sharing.dialog.expiryHint')}
          testId="share-expires"
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <Toggle
          label={t('sharing.fields.downloadable')}
          hint={values.downloadable ? undefined : t('sharing.dialog.viewOnlyHint')}
          checked={values.downloadable}
          onChange={set('downloadable')}
          testId="share-downloadable"
        />
        <Toggle label={t('sharing.fields.requireLogin')} checked={values.requireLogin} onChange={set('requireLogin')} testId="share-require-login" />
        <Toggle label={t('sharing.fields.esign')} hint={t('sharing.dialog.esignHint')} checked={values.esign} onChange={set('esign')} testId="share-esign" />
        {busy && <LinearProgress aria-label={t('common.loading')} />}
        <ErrorAlert error={error} testId="share-error" />
        {error?.code === 'SHARE_LIMIT_REACHED' && !usage?.reached && <Box sx={{ mt: 1 }}>{upgrade}</Box>}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button type="submit" variant="contained" disabled={busy || usage?.reached === true} data-testid="share-submit">
          {t('sharing.dialog.submit')}
        </Button>
      </DialogActions>
    </form>
  );
};

/** The share dialog the file browser opens for its selection (public or private share). */
export const ShareDialog = ({
  open,
  itemIds,
  title,
  ownEmail,
  onClose,
  onCreated,
}: {
  open: boolean;
  itemIds: string[];
  title: string;
  ownEmail: string;
  onClose: () => void;
  onCreated?: (share: Share) => void;
}) => (
  <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" data-testid="share-dialog">
    {open && <ShareDialogBody itemIds={itemIds} title={title} ownEmail={ownEmail} onClose={onClose} onCreated={onCreated} />}
  </Dialog>
);
