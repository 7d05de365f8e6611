import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toApiError, type NormalisedError } from '../../api/errors';
import type { UserInfo } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { browserPlatform, deniedWarningDue, deniedWarningShown, disablePush, enablePush, pushIsOn, pushUnavailableForPlan } from './webPush';

type Status = 'loading' | 'off' | 'on' | 'busy';
type Notice = 'denied' | 'unsupported' | 'unpaid' | null;

/**
 * Settings › Account: browser notifications. Turning the switch on asks the browser's permission,
 * subscribes through the service worker and binds the subscription to the account. Unpaid
 * accounts get no push binding (spec §6), so for them the switch is replaced by the reason.
 */
export const PushSection = ({ user }: { user: UserInfo }) => {
  const { t } = useTranslation();
  const [status, setStatus] = useState<Status>('loading');
  const [notice, setNotice] = useState<Notice>(null);
  const [error, setError] = useState<NormalisedError | null>(null);
  const unpaid = pushUnavailableForPlan(user);
  const supported = browserPlatform.supported();

  useEffect(() => {
    if (unpaid || !supported) return;
    let wanted = true;
    pushIsOn().then(
      (on) => wanted && setStatus(on ? 'on' : 'off'),
      () => wanted && setStatus('off'),
    );
    return () => {
      wanted = false;
    };
  }, [unpaid, supported]);

  const toggle = async (on: boolean) => {
    setStatus('busy');
    setError(null);
    setNotice(null);
    try {
      if (!on) {
        await disablePush(user.id);
        setStatus('off');
        return;
      }
      const outcome = await enablePush(user.id);
      setStatus(outcome === 'on' ? 'on' : 'off');
      if (outcome === 'denied') {
        // the browser's own refusal is explained at most once per 7 days
        if (deniedWarningDue(document.cookie)) {
          deniedWarningShown();
          setNotice('denied');
        }
      } else if (outcome !== 'on') setNotice(outcome);
    } catch (e) {
      setError(toApiError(e).toJSON());
      setStatus(on ? 'off' : 'on');
    }
  };

  return (
    <Box component="section" aria-label={t('push.title')} data-testid="push-section" sx={{ py: 2 }}>
      <Typography variant="h6" component="h2" gutterBottom>
        {t('push.title')}
      </Typography>
      {unpaid ? (
        <Alert severity="info" data-testid="push-unpaid">
          {t('push.unpaid')}
        </Alert>
      ) : !supported ? (
        <Alert severity="info" data-testid="push-unsupported">
          {t('push.unsupported')}
        </Alert>
      ) : (
        <>
          <Typography color="text.secondary" sx={{ mb: 1 }}>
            {t('push.help')}
          </Typography>
          <FormControlLabel
            control={
              <Switch
                checked={status === 'on'}
                disabled={status === 'loading' || status === 'busy'}
                onChange={(e) => void toggle(e.target.checked)}
                slotProps={{ input: { 'data-testid': 'push-switch' } as React.InputHTMLAttributes<HTMLInputElement> }}
              />
            }
            label={t('push.switch')}
          />
          {notice && (
            <Alert severity="warning" sx={{ mt: 1 }} data-testid="push-notice" data-notice={notice}>
              {t(`push.${notice}`)}
            </Alert>
          )}
          <ErrorAlert error={error} testId="push-error" />
        </>
      )}
    </Box>
  );
};
