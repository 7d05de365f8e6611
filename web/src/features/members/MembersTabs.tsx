import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';

/** The members area's screens (spec §2 members/manage, /groupsManage, /activity, /settings, /branding, /custom-url). */
export const MembersTabs = ({ current }: { current: 'manage' | 'groupsManage' | 'activity' | 'settings' | 'branding' | 'custom-url' }) => {
  const { t } = useTranslation();
  return (
    <Tabs value={current} sx={{ mb: 2 }} variant="scrollable" allowScrollButtonsMobile aria-label={t('members.title')}>
      <Tab value="manage" label={t('members.tabs.members')} component={RouterLink} to="/members/manage" data-testid="tab-members" />
      <Tab value="groupsManage" label={t('members.tabs.groups')} component={RouterLink} to="/members/groupsManage" data-testid="tab-groups" />
      <Tab value="activity" label={t('members.tabs.activity')} component={RouterLink} to="/members/activity" data-testid="tab-activity" />
      <Tab value="settings" label={t('members.tabs.settings')} component={RouterLink} to="/members/settings" data-testid="tab-settings" />
      <Tab value="branding" label={t('branding.tabs.branding')} component={RouterLink} to="/members/branding" data-testid="tab-branding" />
      <Tab value="custom-url" label={t('branding.tabs.customUrl')} component={RouterLink} to="/members/custom-url" data-testid="tab-custom-url" />
    </Tabs>
  );
};
