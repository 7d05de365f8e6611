import type { ReactNode } from 'react';
import { Layout } from 'react-admin';
import { ConsoleMenu } from './ConsoleMenu';

export const ConsoleLayout = ({ children }: { children: ReactNode }) => <Layout menu={ConsoleMenu}>{children}</Layout>;
