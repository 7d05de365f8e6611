import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMachine } from '@xstate/react';
import { useMemo } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation, useParams, useSearchParams } from 'react-router';
import { fromPromise } from 'xstate';
import type { UserInfo } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { CenteredCard } from '../../components/StatusPage';
import { useSession } from '../../session/store';
import { linkSlack, type SlackLink } from './slack.api';
import { parseSlackLink, slackLinkMachine } from './slack-link.machine';

const Connect = ({ user, link }: { user: UserInfo; link: SlackLink | null }) => {
  const { t } = useTranslation();
  const machine = useMemo(
    () => slackLinkMachine.provide({ actors: { link: fromPromise<unknown, SlackLink>(({ input }) => linkSlack(user.id, input)) } }),
    [user.id],
  );
  const [state, send] = useMachine(machine, { input: { link, now: Date.now() } });

  if (state.matches('invalid')) {
    return (
      <Box data-testid="slack-invalid">
        <Alert severity="error" role="alert" data-testid="slack-error" sx={{ mb: 2 }}>
          {t('slack.invalid')}
        </Alert>
        <Button component={RouterLink} to="/welcome" variant="outlined">
          {t('slack.home')}
        </Button>
      </Box>
    );
  }
  if (state.matches('linked')) {
    return (
      <Box data-testid="slack-linked">
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'flex-start', mb: 2 }}>
          <CheckCircleOutlined color="success" />
          <Typography>{t('slack.linked', { email: user.email })}</Typography>
        </Stack>
        <Button component={RouterLink} to="/welcome" variant="contained">
          {t('slack.home')}
        </Button>
      </Box>
    );
  }
  const linking = state.matches('linking');
  return (
    <Box data-testid="slack-confirm">
      <Typography sx={{ mb: 1, overflowWrap: 'anywhere' }}>
        <Trans i18nKey="slack.confirm" values={{ slackUserId: link?.slackUserId ?? '', email: user.email }} components={{ strong: <strong /> }} />
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('slack.warning')}
      </Typography>
      <ErrorAlert error={state.context.error} testId="slack-error" />
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
        <Button variant="contained" onClick={() => send({ type: 'CONNECT' })} disabled={linking} data-testid="slack-connect">
          {t('slack.connect')}
        </Button>
        <Button component={RouterLink} to="/welcome" disabled={linking}>
          {t('common.cancel')}
        </Button>
      </Stack>
    </Box>
  );
};

/** `/slack-auth/:slackUserId`: the page Slack's `/axel` command links to; it connects that Slack user to the signed-in account. */
export const SlackAuthPage = () => {
  const { t } = useTranslation();
  const { slackUserId } = useParams();
  const [search] = useSearchParams();
  const location = useLocation();
  const { user, status } = useSession();
  const link = useMemo(() => parseSlackLink(slackUserId, search), [slackUserId, search]);

  return (
    <CenteredCard title={t('slack.title')} testId="slack-auth-page">
      {status === 'loading' ? (
        <CircularProgress aria-label={t('common.loading')} />
      ) : user ? (
        <Connect user={user} link={link} />
      ) : (
        <Box data-testid="slack-sign-in-first">
          <Typography sx={{ mb: 2 }}>{t('slack.signInFirst')}</Typography>
          <Button
            component={RouterLink}
            to={`/signin?${new URLSearchParams({ redirect: location.pathname + location.search }).toString()}`}
            variant="contained"
            data-testid="slack-sign-in"
          >
            {t('slack.signIn')}
          </Button>
        </Box>
      )}
    </CenteredCard>
  );
};
