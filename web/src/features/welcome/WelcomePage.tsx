import FolderOutlined from '@mui/icons-material/FolderOutlined';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import ShareOutlined from '@mui/icons-material/ShareOutlined';
import WalletOutlined from '@mui/icons-material/AccountBalanceWalletOutlined';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Container from '@mui/material/Container';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { AppNotification } from '../../api/types';
import { formatDateTime } from '../../components/i18nHelpers';
import { useSession } from '../../session/store';
import { notificationsApi } from '../notifications/notifications.api';
import { NOTIFICATIONS_PAGE_SIZE } from '../notifications/notifications.machine';

/** How many notifications the landing page shows as recent activity. */
const RECENT_ACTIVITY = 5;

const Shortcut = ({ to, icon, title, testId }: { to: string; icon: ReactNode; title: string; testId: string }) => (
  <Card variant="outlined">
    <CardActionArea component={RouterLink} to={to} data-testid={testId} sx={{ height: '100%' }}>
      <CardContent sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
        {icon}
        <Typography variant="subtitle1">{title}</Typography>
      </CardContent>
    </CardActionArea>
  </Card>
);

export const WelcomePage = () => {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const [recent, setRecent] = useState<AppNotification[] | null>(null);
  const userId = user?.id;

  useEffect(() => {
    if (!userId) return;
    let live = true;
    notificationsApi
      .page(userId, NOTIFICATIONS_PAGE_SIZE)
      .then((page) => live && setRecent(page.slice(0, RECENT_ACTIVITY)))
      .catch(() => live && setRecent([]));
    return () => {
      live = false;
    };
  }, [userId]);

  if (!user) return null;
  return (
    <Container maxWidth="md" sx={{ py: 4 }} data-testid="welcome-page">
      <Typography variant="h4" component="h1" gutterBottom>
        {t('welcome.title', { name: user.username ?? user.email })}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {t('welcome.intro')}
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        <Shortcut to="/files/storage" icon={<FolderOutlined color="primary" />} title={t('welcome.files')} testId="welcome-files" />
        <Shortcut to="/files/shares" icon={<ShareOutlined color="primary" />} title={t('welcome.shares')} testId="welcome-shares" />
        <Shortcut to="/wallet" icon={<WalletOutlined color="primary" />} title={t('welcome.wallet')} testId="welcome-wallet" />
        <Shortcut to="/settings" icon={<SettingsOutlined color="primary" />} title={t('welcome.settings')} testId="welcome-settings" />
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
