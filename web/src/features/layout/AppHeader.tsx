import AccountCircleOutlined from '@mui/icons-material/AccountCircleOutlined';
import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import CardMembershipOutlined from '@mui/icons-material/CardMembershipOutlined';
import LogoutOutlined from '@mui/icons-material/LogoutOutlined';
import MenuOutlined from '@mui/icons-material/MenuOutlined';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import SupportAgentOutlined from '@mui/icons-material/SupportAgentOutlined';
import StorageOutlined from '@mui/icons-material/StorageOutlined';
import AppBar from '@mui/material/AppBar';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Brand } from '../../components/Brand';
import { TeamBrand } from '../branding/TeamBrand';
import { LogoutDialog } from '../../components/LogoutDialog';
import { STAFF_ROLES } from '../../routing/guard';
import { useSession } from '../../session/store';
import { NotificationBell } from '../notifications/NotificationBell';
import { SupportDialog } from '../support/SupportDialog';

interface Item {
  key: string;
  label: string;
  icon: ReactNode;
  testId: string;
  onSelect: () => void;
}

/** The signed-in header: brand, notifications and the account menu; `onOpenNav` adds the navigation's menu button (phones). */
export const AppHeader = ({ onOpenNav }: { onOpenNav?: () => void }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSession();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [logoutOpen, setLogoutOpen] = useState(false);
  const [supportOpen, setSupportOpen] = useState(false);
  if (!user) return null;

  const close = () => setAnchor(null);
  const go = (path: string) => () => {
    close();
    void navigate(path);
  };
  const isStaff = (STAFF_ROLES as readonly string[]).includes(user.role);

  const items: Item[] = [
    {
      key: 'storage',
      label: t('menu.storageManagement'),
      icon: <StorageOutlined fontSize="small" />,
      testId: 'menu-storage-management',
      onSelect: go('/storages/management'),
    },
    {
      key: 'subscription',
      label: t('menu.subscription'),
      icon: <CardMembershipOutlined fontSize="small" />,
      testId: 'menu-subscription',
      onSelect: go('/subscription/manage'),
    },
    { key: 'settings', label: t('menu.settings'), icon: <SettingsOutlined fontSize="small" />, testId: 'menu-settings', onSelect: go('/settings') },
    {
      key: 'account',
      label: t('menu.myAccount'),
      icon: <AccountCircleOutlined fontSize="small" />,
      testId: 'menu-my-account',
      onSelect: go('/settings?tab=account'),
    },
    {
      key: 'support',
      label: t('support.menu'),
      icon: <SupportAgentOutlined fontSize="small" />,
      testId: 'menu-support',
      onSelect: () => {
        close();
        setSupportOpen(true);
      },
    },
  ];

  return (
    <AppBar position="sticky" color="default" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider' }}>
      <Toolbar sx={{ gap: 1 }}>
        {onOpenNav && (
          <IconButton edge="start" onClick={onOpenNav} aria-label={t('nav.open')} data-testid="nav-open">
            <MenuOutlined />
          </IconButton>
        )}
        <Brand to="/welcome" />
        <TeamBrand />
        <Box sx={{ flex: 1 }} />
        <NotificationBell />
        <Tooltip title={t('menu.open')}>
          <IconButton
            onClick={(e) => setAnchor(e.currentTarget)}
            aria-label={t('menu.open')}
            aria-haspopup="menu"
            aria-controls={anchor ? 'user-menu' : undefined}
            aria-expanded={anchor ? 'true' : undefined}
            data-testid="user-menu"
          >
            <Avatar src={user.avatarUrl ?? undefined} alt={user.email} sx={{ width: 32, height: 32 }}>
              {user.email.slice(0, 1).toUpperCase()}
            </Avatar>
          </IconButton>
        </Tooltip>
        <Menu
          id="user-menu"
          anchorEl={anchor}
          open={Boolean(anchor)}
          onClose={close}
          anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
          transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        >
          <Box sx={{ px: 2, py: 1 }}>
            <Typography variant="body2" noWrap data-testid="user-menu-email" sx={{ fontWeight: 600 }}>
              {user.email}
            </Typography>
          </Box>
          <Divider />
          {items.map((item) => (
            <MenuItem key={item.key} onClick={item.onSelect} data-testid={item.testId}>
              <ListItemIcon>{item.icon}</ListItemIcon>
              <ListItemText>{item.label}</ListItemText>
            </MenuItem>
          ))}
          {isStaff && (
            <MenuItem component="a" href="/admin" onClick={close} data-testid="menu-admin">
              <ListItemIcon>
                <AdminPanelSettingsOutlined fontSize="small" />
              </ListItemIcon>
              <ListItemText>{t('menu.admin')}</ListItemText>
            </MenuItem>
          )}
          <Divider />
          <MenuItem
            onClick={() => {
              close();
              setLogoutOpen(true);
            }}
            data-testid="menu-logout"
          >
            <ListItemIcon>
              <LogoutOutlined fontSize="small" />
            </ListItemIcon>
            <ListItemText>{t('menu.logout')}</ListItemText>
          </MenuItem>
        </Menu>
      </Toolbar>
      <LogoutDialog open={logoutOpen} onClose={() => setLogoutOpen(false)} />
      <SupportDialog user={user} open={supportOpen} onClose={() => setSupportOpen(false)} />
    </AppBar>
  );
};
