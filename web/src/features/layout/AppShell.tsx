import Box from '@mui/material/Box';
import type { ReactNode } from 'react';
import { BillingNotices } from '../billing/BillingNotices';
import { AppHeader } from './AppHeader';

/** Frame of the signed-in area: the header above the page. */
export const AppShell = ({ children }: { children: ReactNode }) => (
  <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
    <AppHeader />
    <BillingNotices />
    <Box component="main" sx={{ flex: 1 }}>
      {children}
    </Box>
  </Box>
);
