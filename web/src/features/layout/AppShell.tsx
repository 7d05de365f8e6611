import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useState, type ReactNode } from 'react';
import { BillingNotices } from '../billing/BillingNotices';
import { AppHeader } from './AppHeader';
import { AppNav, NAV_WIDTH } from './AppNav';

/**
 * Frame of the signed-in area: the header above, the navigation in a side column on a desktop
 * (a drawer the header's menu button opens on a phone or tablet), the page beside it.
 */
export const AppShell = ({ children }: { children: ReactNode }) => {
  const theme = useTheme();
  const desktop = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const [menuOpen, setMenuOpen] = useState(false);
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <AppHeader onOpenNav={desktop ? undefined : () => setMenuOpen(true)} />
      <Box sx={{ flex: 1, display: 'flex', minWidth: 0 }}>
        {desktop ? (
          <Box sx={{ width: NAV_WIDTH, flexShrink: 0, borderRight: 1, borderColor: 'divider' }}>
            <Box sx={{ position: 'sticky', top: 64, maxHeight: 'calc(100vh - 64px)', overflowY: 'auto' }}>
              <AppNav />
            </Box>
          </Box>
        ) : (
          <Drawer open={menuOpen} onClose={() => setMenuOpen(false)} slotProps={{ paper: { sx: { width: NAV_WIDTH, maxWidth: '85vw' } } }}>
            <AppNav onNavigate={() => setMenuOpen(false)} />
          </Drawer>
        )}
        <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
          <BillingNotices />
          <Box component="main" sx={{ flex: 1, minWidth: 0 }}>
            {children}
          </Box>
        </Box>
      </Box>
    </Box>
  );
};
