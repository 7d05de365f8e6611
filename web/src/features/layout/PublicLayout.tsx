import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Toolbar from '@mui/material/Toolbar';
import type { ReactNode } from 'react';
import { Brand } from '../../components/Brand';
import { HostBrand } from '../branding/TeamBrand';

/** Frame of the pages a visitor sees without signing in (on a team's custom host, with its branding). */
export const PublicLayout = ({ children }: { children: ReactNode }) => (
  <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
    <AppBar position="static" color="default" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider' }}>
      <Toolbar>
        <Brand to="/signin" />
        <HostBrand />
      </Toolbar>
    </AppBar>
    <Box component="main" sx={{ flex: 1 }}>
      {children}
    </Box>
  </Box>
);
