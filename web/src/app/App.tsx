import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { useMemo } from 'react';
import { RouterProvider } from 'react-router/dom';
import { createAppRouter } from '../routing/router';
import { theme } from './theme';

export const App = () => {
  const router = useMemo(() => createAppRouter(), []);
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <RouterProvider router={router} />
    </ThemeProvider>
  );
};
