import WalletOutlined from '@mui/icons-material/AccountBalanceWalletOutlined';
import BookmarksOutlined from '@mui/icons-material/BookmarksOutlined';
import CardMembershipOutlined from '@mui/icons-material/CardMembershipOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import DnsOutlined from '@mui/icons-material/DnsOutlined';
import DrawOutlined from '@mui/icons-material/DrawOutlined';
import FolderOutlined from '@mui/icons-material/FolderOutlined';
import GroupsOutlined from '@mui/icons-material/GroupsOutlined';
import HomeOutlined from '@mui/icons-material/HomeOutlined';
import MoveToInboxOutlined from '@mui/icons-material/MoveToInboxOutlined';
import ShareOutlined from '@mui/icons-material/ShareOutlined';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { localeTag } from '../../components/i18nHelpers';
import { useLoad } from '../../components/useLoad';
import { useSession } from '../../session/store';
import { filesApi, type Storage } from '../files/files.api';
import { formatBytes } from '../files/format';
import { uploadQueue } from '../files/uploader';
import { canManageMembers } from '../../routing/guard';
import { useDrives } from '../devices/useDrives';
import { activeNav, cloudLockersTarget, NAV_ENTRIES, type NavKey } from './nav';

export const NAV_WIDTH = 248;

const ICONS: Record<NavKey, ReactNode> = {
  home: <HomeOutlined />,
  files: <FolderOutlined />,
  shares: <ShareOutlined />,
  secureFetch: <MoveToInboxOutlined />,
  bookmarks: <BookmarksOutlined />,
  trash: <DeleteOutlined />,
  wallet: <WalletOutlined />,
  plans: <CardMembershipOutlined />,
  members: <GroupsOutlined />,
  cloudlockers: <DnsOutlined />,
  esign: <DrawOutlined />,
};

/** The user's own online storage (the one the files page opens first), read again on every move and saved upload. */
const useOwnStorage = (userId: string | undefined, path: string) => {
  const [saved, setSaved] = useState(0);
  useEffect(() => {
    const sub = uploadQueue.on('saved', () => setSaved((n) => n + 1));
    return () => sub.unsubscribe();
  }, []);
  return (
    useLoad(userId ? () => filesApi.storages(userId).then((all) => all.find((s) => s.type === 'online') ?? all[0] ?? null) : null, [userId, path, saved])
      .data ?? null
  );
};

const StorageUsage = ({ storage, onNavigate }: { storage: Storage; onNavigate?: () => void }) => {
  const { t, i18n } = useTranslation();
  const tag = localeTag(i18n.language);
  const share = storage.sizeTotal > 0 ? Math.min(100, (storage.sizeUsed / storage.sizeTotal) * 100) : 0;
  return (
    <Box sx={{ px: 2, py: 2 }} data-testid="nav-storage" data-used={storage.sizeUsed} data-total={storage.sizeTotal}>
      <Typography variant="overline" color="text.secondary" component="div">
        {t('nav.storage')}
      </Typography>
      <LinearProgress
        variant="determinate"
        value={share}
        color={share >= 90 ? 'error' : 'primary'}
        sx={{ my: 1, height: 6, borderRadius: 3 }}
        aria-label={t('nav.storage')}
      />
      <Typography variant="body2" color="text.secondary" data-testid="nav-storage-usage">
        {t('nav.usage', { used: formatBytes(storage.sizeUsed, tag), total: formatBytes(storage.sizeTotal, tag) })}
      </Typography>
      <Link component={RouterLink} to="/storages/upgrade" variant="body2" onClick={onNavigate} data-testid="nav-more-storage">
        {t('nav.more')}
      </Link>
    </Box>
  );
};

/**
 * The signed-in app's navigation: every screen a user reaches from anywhere, the current one
 * marked, and the storage used below. The same content sits in the side column on a desktop and
 * in the menu drawer on a phone (`onNavigate` closes that drawer).
 */
export const AppNav = ({ onNavigate }: { onNavigate?: () => void }) => {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { user } = useSession();
  const storage = useOwnStorage(user?.id, pathname);
  const active = activeNav(pathname);
  const drives = useDrives(user?.id);
  return (
    <Box component="nav" aria-label={t('nav.label')} data-testid="app-nav" sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      <List sx={{ py: 1 }}>
        {NAV_ENTRIES.filter(
          (entry) =>
            (!entry.managersOnly || (user && canManageMembers(user))) &&
            (!entry.cloudLockerOwnersOnly || drives.length > 0) &&
            (!entry.planFeature || user?.planFeatures?.includes(entry.planFeature)),
        ).map((entry) => (
          <ListItem key={entry.key} disablePadding>
            <ListItemButton
              component={RouterLink}
              to={entry.key === 'cloudlockers' ? cloudLockersTarget(drives.map((d) => d.id)) : entry.to}
              selected={active === entry.key}
              aria-current={active === entry.key ? 'page' : undefined}
              onClick={onNavigate}
              data-testid={`nav-${entry.key}`}
              sx={{ mx: 1, borderRadius: 2 }}
            >
              <ListItemIcon sx={{ minWidth: 40 }}>{ICONS[entry.key]}</ListItemIcon>
              <ListItemText primary={t(`nav.${entry.key}`)} />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
      {storage && <StorageUsage storage={storage} onNavigate={onNavigate} />}
    </Box>
  );
};
