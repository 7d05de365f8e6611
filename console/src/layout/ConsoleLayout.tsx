import type { ReactNode } from 'react';
import { Layout } from 'react-admin';
import { useSavedLocale } from '../i18n/staffLocale';
import { ConsoleAppBar } from './ConsoleAppBar';
import { ConsoleMenu } from './ConsoleMenu';

export const ConsoleLayout = ({ children }: { children: ReactNode }) => {
  useSavedLocale();
  return (
    <Layout menu={ConsoleMenu} appBar={ConsoleAppBar}>
      {children}
    </Layout>
  );
};
