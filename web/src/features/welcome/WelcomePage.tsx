import CardMembershipOutlined from '@mui/icons-material/CardMembershipOutlined';
import MoveToInboxOutlined from '@mui/icons-material/MoveToInboxOutlined';
import ShareOutlined from '@mui/icons-material/ShareOutlined';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { AppNotification } from '../../api/types';
import { formatDateTime } from '../../components/i18nHelpers';
import { useLoad } from '../../components/useLoad';
import { useSession } from '../../session/store';
import { notificationsApi } from '../notifications/notifications.api';
import { NOTIFICATIONS_PAGE_SIZE } from '../notifications/notifications.machine';

/** How many notifications the landing page shows as recent activity. */
const RECENT_ACTIVITY = 5;

type Step = 'upload' | 'share' | 'request' | 'plan';

/** What a user does first, in order, each with the screen that does it. */
const STEPS: { key: Step; to: string; icon: ReactNode; testId: string }[] = [
  { key: 'upload', to: '/files/storage', icon: <UploadFileOutlined color="primary" />, testId: 'welcome-files' },
  { key: 'share', to: '/files/storage', icon: <ShareOutlined color="primary" />, testId: 'welcome-share' },
  { key: 'request', to: '/files/secure-fetch', icon: <MoveToInboxOutlined color="primary" />, testId: 'welcome-request' },
  { key: 'plan', to: '/storages/plans', icon: <CardMembershipOutlined color="primary" />, testId: 'welcome-plans' },
];

const StepCard = ({ n, step }: { n: number; step: (typeof STEPS)[number] }) => {
  const { t } = useTranslation();
  return (
    <Paper
      variant="outlined"
      component="li"
      sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 1, listStyle: 'none' }}
      data-testid="welcome-step"
      data-step={step.key}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        {step.icon}
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {n}. {t(`start.${step.key}.title`)}
        </Typography>
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
        {t(`start.${step.key}.body`)}
      </Typography>
      <Box>
        <Button component={RouterLink} to={step.to} variant={n === 1 ? 'contained' : 'outlined'} size="small" data-testid={step.testId}>
          {t(`start.${step.key}.action`)}
        </Button>
      </Box>
    </Paper>
  );
};

export const WelcomePage = () => {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const userId = user?.id;
  const recent =
    useLoad(
      userId
        ? () =>
            notificationsApi
              .page(userId, NOTIFICATIONS_PAGE_SIZE)
              .then((page) => page.slice(0, RECENT_ACTIVITY))
              .catch((): AppNotification[] => [])
        : null,
      [userId],
    ).data ?? null;

  if (!user) return null;
  return (
    <Container maxWidth="md" sx={{ py: 4 }} data-testid="welcome-page">
      {/* the name may be a long e-mail address: it wraps rather than widening a phone's page */}
      <Typography variant="h4" component="h1" gutterBottom sx={{ overflowWrap: 'anywhere', fontSize: { xs: '1.75rem', sm: undefined } }}>
        {t('welcome.title', { name: user.username ?? user.email })}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {t('welcome.intro')}
      </Typography>
      <Typography variant="h6" component="p" sx={{ mb: 1 }}>
        {t('start.lead')}
      </Typography>
      <Box component="ol" sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, p: 0, m: 0 }} data-testid="welcome-steps">
        {STEPS.map((step, i) => (
          <StepCard key={step.key} n={i + 1} step={step} />
        ))}
      </Box>
      <Paper variant="outlined" sx={{ mt: 4, p: 2 }} component="section" aria-labelledby="recent-activity-title">
        <Typography id="recent-activity-title" variant="h6" component="h2">
          {t('welcome.recentActivity')}
        </Typography>
        {recent && recent.length === 0 && (
          <Typography color="text.secondary" sx={{ py: 1 }}>
            {t('notifications.empty')}
          </Typography>
        )}
        {recent && recent.length > 0 && (
          <List dense data-testid="welcome-recent">
            {recent.map((n) => (
              <ListItem key={n.id} disableGutters>
                <ListItemText primary={n.title} secondary={formatDateTime(n.createdAt, i18n.language)} />
              </ListItem>
            ))}
          </List>
        )}
      </Paper>
    </Container>
  );
};
