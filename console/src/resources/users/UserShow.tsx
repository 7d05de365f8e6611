import { Box } from '@mui/material';
import { Show, TabbedShowLayout, usePermissions, useRecordContext } from 'react-admin';
import { mayReadActivity } from '../activity/activity';
import { UserActivity } from './UserActivity';
import { UserShowActions } from './UserActions';
import { UserBilling } from './UserBilling';
import { UserAccountDetails, UserPlanDetails, UserProfileDetails } from './UserDetails';

const UserTitle = () => {
  const record = useRecordContext();
  return <span data-testid="user-title">{record ? String(record.email ?? record.id) : ''}</span>;
};

export const UserShow = () => {
  // the tab shows the activity log, which only its readers may open
  const { permissions } = usePermissions();
  return (
    <Show actions={<UserShowActions />} title={<UserTitle />}>
      <TabbedShowLayout>
        <TabbedShowLayout.Tab label="console.common.sections.account" data-testid="user-tab-account">
          <UserAccountDetails label={false} />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="console.common.sections.profile" path="profile" data-testid="user-tab-profile">
          <UserProfileDetails label={false} />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="console.common.sections.plan" path="plan" data-testid="user-tab-plan">
          <UserPlanDetails label={false} />
          <Box sx={{ overflowX: 'auto' }}>
            <UserBilling label={false} />
          </Box>
        </TabbedShowLayout.Tab>
        {mayReadActivity(permissions) ? (
          <TabbedShowLayout.Tab label="console.common.sections.activity" path="activity" data-testid="user-tab-activity">
            <UserActivity label={false} />
          </TabbedShowLayout.Tab>
        ) : null}
      </TabbedShowLayout>
    </Show>
  );
};
