import NotificationsOutlined from '@mui/icons-material/NotificationsOutlined';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../session/store';
import { NotificationsDrawer } from './NotificationsDrawer';
import { unseenStore, useUnseenCount } from './unseen';

export const NotificationBell = () => {
  const { t } = useTranslation();
  const { user } = useSession();
  const count = useUnseenCount();
  const [open, setOpen] = useState(false);
  const userId = user?.id;

  useEffect(() => {
    if (userId) void unseenStore.refresh(userId);
  }, [userId]);

  if (!userId) return null;
  const label = count > 0 ? t('notifications.bellUnseen', { count }) : t('notifications.bell');
  return (
    <>
      <Tooltip title={label}>
        <IconButton onClick={() => setOpen(true)} aria-label={label} data-testid="notifications-bell">
          <Badge badgeContent={count} color="error" max={99} data-testid="notifications-unseen-count">
            <NotificationsOutlined />
          </Badge>
        </IconButton>
      </Tooltip>
      <NotificationsDrawer userId={userId} open={open} onClose={() => setOpen(false)} />
    </>
  );
};
