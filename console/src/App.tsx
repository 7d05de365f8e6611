import { Admin, CustomRoutes, Resource } from 'react-admin';
import { BrowserRouter, Route, useRoutes } from 'react-router-dom';
import { createAuthProvider } from './auth/authProvider';
import { LoginPage } from './auth/LoginPage';
import { createDataProvider } from './data/dataProvider';
import { i18nProvider } from './i18n/i18nProvider';
import { ConsoleLayout } from './layout/ConsoleLayout';
import { BillingDashboard } from './pages/billing/BillingDashboard';
import { Dashboard } from './pages/Dashboard';
import { NotFoundPage } from './pages/NotFoundPage';
import { ProcessesPage } from './pages/ProcessesPage';
import { StorageHealthPage } from './pages/storage-health/StorageHealthPage';
import { AuditPage } from './pages/audit/AuditPage';
import { ActivityPage, TimeTravelPage } from './resources/activity';
import autopay from './resources/autopay';
import { withAutopay } from './resources/autopay/autopayApi';
import { AxelAccountsDashboard, WalletDashboard } from './resources/autopay/WalletDashboards';
import deletedUsers from './resources/deleted-users';
import ipfsPins from './resources/ipfs-pins';
import drives from './resources/drives';
import promocodes from './resources/promocodes';
import databases from './resources/databases';
import { DriveConnectDashboard } from './pages/operations/DriveConnectDashboard';
import { GrafanaPage } from './pages/operations/GrafanaPage';
import { WebsiteHostingDashboard } from './pages/operations/WebsiteHostingDashboard';
import users from './resources/users';

import { appRoutes, BASENAME } from './routes';

export { BASENAME };

const authProvider = createAuthProvider();
const dataProvider = withAutopay(createDataProvider());

const ConsoleAdmin = () => (
  <Admin
    basename={BASENAME}
    title="console.title"
    authProvider={authProvider}
    dataProvider={dataProvider}
    i18nProvider={i18nProvider}
    loginPage={LoginPage}
    catchAll={NotFoundPage}
    layout={ConsoleLayout}
    requireAuth
    disableTelemetry
  >
    <Resource name="users" {...users} />
    <Resource name="deleted-users" {...deletedUsers} />
    <Resource name="auto-pay" {...autopay} />
    <Resource name="promocodes" {...promocodes} />
    <Resource name="ipfs-pins" {...ipfsPins} />
    <Resource name="drives" {...drives} />
    <Resource name="databases" {...databases} />
    <CustomRoutes>
      <Route path="/dashboard" element={<Dashboard />} />
      <Route path="/processes" element={<ProcessesPage />} />
      <Route path="/storage-health" element={<StorageHealthPage />} />
      <Route path="/audit" element={<AuditPage />} />
      <Route path="/activity" element={<ActivityPage />} />
      <Route path="/activity/state" element={<TimeTravelPage />} />
      <Route path="/wallet" element={<WalletDashboard />} />
      <Route path="/axel-accounts" element={<AxelAccountsDashboard />} />
      <Route path="/billing" element={<BillingDashboard />} />
      <Route path="/website-hosting" element={<WebsiteHostingDashboard />} />
      <Route path="/drive-connect" element={<DriveConnectDashboard />} />
      <Route path="/grafana" element={<GrafanaPage />} />
    </CustomRoutes>
  </Admin>
);

/** Browser history with the console mounted at /admin, around it the redirects of `appRoutes`. */
const AppRoutes = () => useRoutes(appRoutes(<ConsoleAdmin />));

export const App = () => (
  <BrowserRouter>
    <AppRoutes />
  </BrowserRouter>
);
