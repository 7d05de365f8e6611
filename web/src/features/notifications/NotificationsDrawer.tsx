import CloseOutlined from '@mui/icons-material/CloseOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMachine } from '@xstate/react';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatDateTime } from '../../components/i18nHelpers';
import { notificationsActors } from './notifications.api';
import { notificationsMachine } from './notifications.machine';
import { unseenStore } from './unseen';

export const NotificationsDrawer = ({ userId, open, onClose }: { userId: string; open: boolean; onClose: () => void }) => {
  const { t, i18n } = useTranslation();
  const machine = useMemo(
    () =>
      notificationsMachine.provide({
        actors: notificationsActors(userId),
        actions: { unseenChanged: () => void unseenStore.refresh(userId) },
      }),
    [userId],
  );
  const [state, send] = useMachine(machine);
  const { items, allRetrieved, error } = state.context;
  const loading = state.matches('loading') || state.matches('markingSeen');

  useEffect(() => {
    if (open) send({ type: 'OPEN' });
  }, [open, send]);

  return (
    <Drawer anchor="right" open={open} onClose={onClose} slotProps={{ paper: { sx: { width: { xs: '100%', sm: 400 } } } }}>
      <Box role="region" aria-labelledby="notifications-title" data-testid="notifications-drawer" sx={{ p: 2 }}>
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
          <Typography id="notifications-title" variant="h6" component="h2">
            {t('notifications.title')}
          </Typography>
          <IconButton onClick={onClose} aria-label={t('common.close')} data-testid="notifications-close">
            <CloseOutlined />
          </IconButton>
        </Stack>
        <ErrorAlert error={error} testId="notifications-error" />
        {items.length === 0 && !loading && allRetrieved && (
          <Typography color="text.secondary" sx={{ py: 3 }} data-testid="notifications-empty">
            {t('notifications.empty')}
          </Typography>
        )}
        <List data-testid="notifications-list">
          {items.map((n) => (
            <ListItem
              key={n.id}
              divider
              data-testid="notification-item"
              secondaryAction={
                <IconButton
                  edge="end"
                  aria-label={t('notifications.delete', { title: n.title })}
                  onClick={() => send({ type: 'DELETE', id: n.id })}
                  disabled={!state.matches('ready')}
                  data-testid="notification-delete"
                >
                  <DeleteOutline />
                </IconButton>
              }
            >
              <ListItemText
                primary={n.title}
                secondary={
                  <>
                    {n.body && (
                      <Typography component="span" variant="body2" sx={{ display: 'block' }}>
                        {n.body}
                      </Typography>
                    )}
                    <Typography component="span" variant="caption" color="text.secondary">
                      {formatDateTime(n.createdAt, i18n.language)}
                    </Typography>
                  </>
                }
              />
            </ListItem>
          ))}
        </List>
        {loading && (
          <Stack sx={{ alignItems: 'center', py: 2 }}>
            <CircularProgress size={28} aria-label={t('common.loading')} />
          </Stack>
        )}
        {!loading && items.length > 0 && allRetrieved && (
          <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center', py: 2 }} data-testid="notifications-all-retrieved">
            {t('notifications.allRetrieved')}
          </Typography>
        )}
        {!loading && !allRetrieved && state.matches('ready') && (
          <Stack sx={{ alignItems: 'center' }}>
            <Button onClick={() => send({ type: 'LOAD_MORE' })} data-testid="notifications-load-more">
              {t('notifications.loadMore')}
            </Button>
          </Stack>
        )}
      </Box>
    </Drawer>
  );
};
