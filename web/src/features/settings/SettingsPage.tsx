import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useSession } from '../../session/store';
import { BackupTab } from '../devices/BackupTab';
import { CloudLockersTab } from '../devices/CloudLockersTab';
import { AccountTab } from './AccountTab';
import { DeleteAccountTab } from './DeleteAccountTab';
import { ProfileTab } from './ProfileTab';

const TABS = ['profile', 'account', 'cloudlockers', 'backup', 'delete'] as const;
type TabName = (typeof TABS)[number];
const isTab = (v: string | null): v is TabName => (TABS as readonly (string | null)[]).includes(v);

export const SettingsPage = () => {
  const { t } = useTranslation();
  const { user } = useSession();
  const [params, setParams] = useSearchParams();
  const raw = params.get('tab');
  const tab: TabName = isTab(raw) ? raw : 'profile';
  if (!user) return null;

  return (
    <Container maxWidth="md" sx={{ py: 4 }}>
      <Typography variant="h4" component="h1" gutterBottom>
        {t('settings.title')}
      </Typography>
      <Paper variant="outlined">
        <Tabs
          value={tab}
          onChange={(_, value: TabName) => setParams(value === 'profile' ? {} : { tab: value }, { replace: true })}
          aria-label={t('settings.title')}
          variant="scrollable"
          allowScrollButtonsMobile
        >
          {TABS.map((name) => (
            <Tab
              key={name}
              value={name}
              label={t(`settings.tabs.${name}`)}
              id={`settings-tab-${name}`}
              aria-controls={`settings-panel-${name}`}
              data-testid={`settings-tab-${name}`}
            />
          ))}
        </Tabs>
        <Box
          role="tabpanel"
          id={`settings-panel-${tab}`}
          aria-labelledby={`settings-tab-${tab}`}
          sx={{ p: { xs: 2, sm: 3 }, borderTop: 1, borderColor: 'divider' }}
        >
          {tab === 'profile' && <ProfileTab user={user} />}
          {tab === 'account' && <AccountTab user={user} />}
          {tab === 'cloudlockers' && <CloudLockersTab userId={user.id} />}
          {tab === 'backup' && <BackupTab userId={user.id} />}
          {tab === 'delete' && <DeleteAccountTab user={user} />}
        </Box>
      </Paper>
    </Container>
  );
};
