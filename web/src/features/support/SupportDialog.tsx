import AttachFileOutlined from '@mui/icons-material/AttachFileOutlined';
import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import LinearProgress from '@mui/material/LinearProgress';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMachine } from '@xstate/react';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { UserInfo } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FormField } from '../../components/FormField';
import { localeTag, translateFieldError } from '../../components/i18nHelpers';
import { formatBytes } from '../files/format';
import { supportActors } from './support.actors';
import { teamOwnerOf } from './support.api';
import { supportMachine, type Recipient } from './support.machine';

/** The contact-support dialog (a 600 px modal, spec §2); a team member may write to their team's owner instead. */
export const SupportDialog = ({ user, open, onClose }: { user: UserInfo; open: boolean; onClose: () => void }) => {
  const { t, i18n } = useTranslation();
  const [ownerId, setOwnerId] = useState<string | null>(null);
  const machine = useMemo(() => supportMachine.provide({ actors: supportActors(user.id, ownerId) }), [user.id, ownerId]);
  const [state, send] = useMachine(machine);
  const [to, setTo] = useState<Recipient>('support');
  const [email, setEmail] = useState('');
  const [subject, setSubject] = useState('');
  const [text, setText] = useState('');
  const [attachment, setAttachment] = useState<File | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const { context } = state;
  const sending = state.matches('sending');

  useEffect(() => {
    if (!open) return;
    let wanted = true;
    teamOwnerOf(user.id).then(
      (id) => wanted && setOwnerId(id),
      () => wanted && setOwnerId(null),
    );
    return () => {
      wanted = false;
    };
  }, [open, user.id]);

  const reset = () => {
    setSubject('');
    setText('');
    setAttachment(null);
    if (fileInput.current) fileInput.current.value = '';
    send({ type: 'AGAIN' });
  };
  const close = () => {
    if (sending) return;
    if (state.matches('sent')) reset();
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    send({ type: 'SUBMIT', form: { to, email, subject, text, attachment: to === 'support' ? attachment : null } });
  };
  const attachmentError = translateFieldError(t, context.fieldErrors.attachment);

  return (
    <Dialog
      open={open}
      onClose={close}
      fullWidth
      scroll="paper"
      aria-labelledby="support-title"
      data-testid="support-dialog"
      slotProps={{ paper: { sx: { maxWidth: 600, mx: { xs: 1.5, sm: 4 }, width: { xs: 'calc(100% - 24px)', sm: 'calc(100% - 64px)' } } } }}
    >
      <DialogTitle id="support-title">{t('support.title')}</DialogTitle>
      {state.matches('sent') ? (
        <>
          <DialogContent>
            <Stack direction="row" spacing={1.5} sx={{ alignItems: 'flex-start' }} data-testid="support-sent">
              <CheckCircleOutlined color="success" />
              <Typography>{context.sentTo === 'owner' ? t('support.sentToOwner') : t('support.sent')}</Typography>
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={reset} data-testid="support-again">
              {t('support.another')}
            </Button>
            <Button variant="contained" onClick={close} data-testid="support-close">
              {t('common.close')}
            </Button>
          </DialogActions>
        </>
      ) : (
        <Box component="form" noValidate onSubmit={submit} aria-label={t('support.title')} sx={{ display: 'contents' }}>
          <DialogContent dividers>
            <Typography color="text.secondary" sx={{ mb: 1 }}>
              {to === 'owner' ? t('support.introOwner') : t('support.intro')}
            </Typography>
            {ownerId && (
              <RadioGroup
                row
                value={to}
                onChange={(e) => setTo(e.target.value as Recipient)}
                aria-label={t('support.to')}
                data-testid="support-recipient"
                sx={{ mb: 1 }}
              >
                <FormControlLabel value="support" control={<Radio disabled={sending} />} label={t('support.toSupport')} data-testid="support-to-support" />
                <FormControlLabel value="owner" control={<Radio disabled={sending} />} label={t('support.toOwner')} data-testid="support-to-owner" />
              </RadioGroup>
            )}
            <ErrorAlert error={context.error} testId="support-error" />
            {to === 'support' && (
              <FormField
                name="email"
                type="email"
                label={t('support.replyTo')}
                hint={t('support.replyToHint', { email: user.email })}
                value={email}
                onValue={setEmail}
                errorKey={context.fieldErrors.email}
                testId="support-email"
                disabled={sending}
              />
            )}
            <FormField
              name="subject"
              label={t('support.subject')}
              value={subject}
              onValue={setSubject}
              errorKey={context.fieldErrors.subject}
              testId="support-subject"
              required
              disabled={sending}
            />
            <FormField
              name="text"
              label={t('support.message')}
              value={text}
              onValue={setText}
              errorKey={context.fieldErrors.text}
              testId="support-text"
              required
              multiline
              minRows={4}
              disabled={sending}
            />
            {to === 'support' && (
              <Box sx={{ mt: 1 }}>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
                  <Button component="label" variant="outlined" startIcon={<AttachFileOutlined />} disabled={sending}>
                    {t('support.attach')}
                    <input ref={fileInput} type="file" hidden data-testid="support-attachment" onChange={(e) => setAttachment(e.target.files?.[0] ?? null)} />
                  </Button>
                  {attachment && (
                    <Typography variant="body2" sx={{ minWidth: 0, overflowWrap: 'anywhere' }} data-testid="support-attachment-name">
                      {attachment.name} ({formatBytes(attachment.size, localeTag(i18n.language))})
                    </Typography>
                  )}
                  {attachment && !sending && (
                    <Button
                      size="small"
                      onClick={() => {
                        setAttachment(null);
                        if (fileInput.current) fileInput.current.value = '';
                      }}
                    >
                      {t('support.removeAttachment')}
                    </Button>
                  )}
                </Stack>
                <FormHelperText error={Boolean(attachmentError)} data-testid="support-attachment-help">
                  {attachmentError ?? t('support.attachmentHint')}
                </FormHelperText>
              </Box>
            )}
            {sending && (
              <Box sx={{ mt: 2 }}>
                <LinearProgress
                  variant={context.progress > 0 ? 'determinate' : 'indeterminate'}
                  value={Math.round(context.progress * 100)}
                  aria-label={t('support.sending')}
                  data-testid="support-progress"
                />
                <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                  {t('support.sendingPercent', { percent: Math.round(context.progress * 100) })}
                </Typography>
              </Box>
            )}
            {to === 'owner' && (
              <Alert severity="info" sx={{ mt: 2 }}>
                {t('support.ownerNoAttachment')}
              </Alert>
            )}
          </DialogContent>
          <DialogActions>
            <Button onClick={close} disabled={sending} data-testid="support-cancel">
              {t('common.cancel')}
            </Button>
            <Button type="submit" variant="contained" disabled={sending} data-testid="support-submit">
              {t('support.send')}
            </Button>
          </DialogActions>
        </Box>
      )}
    </Dialog>
  );
};
