import type { ReactNode } from 'react';
import { Layout } from 'react-admin';
import { useSavedLocale } from '../i18n/staffLocale';
import { ConsoleAppBar } from './ConsoleAppBar';
import { ConsoleMenu } from './ConsoleMenu';

export const ConsoleLayout = ({ children }: { children: ReactNode }) => {
  useSavedLocale();
  return (
    // the page is as wide as the screen: a wide table scrolls inside its own box instead of widening the page (a phone's 390 px)
    <Layout menu={ConsoleMenu} appBar={ConsoleAppBar} sx={{ minWidth: 0, '& .RaLayout-content': { minWidth: 0 } }}>
      {children}
    </Layout>
  );
};
