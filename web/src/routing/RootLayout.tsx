import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useBlocker, useLocation } from 'react-router';
import { appConfig } from '../app/config';
import { Notices } from '../components/Notices';
import { OfflineBanner } from '../components/OfflineBanner';
import { TermsAcceptanceDialog } from '../components/TermsAcceptanceDialog';
import { useOnline } from '../components/useOnline';
import { useHostBranding } from '../features/branding/hostBranding';
import { AppShell } from '../features/layout/AppShell';
import { PublicLayout } from '../features/layout/PublicLayout';
import { usePendingInvite } from '../features/members/usePendingInvite';
import { usePush } from '../features/push/usePush';
import { applyLocale } from '../i18n';
import { noticeStore } from '../session/notices';
import { useSession } from '../session/store';
import { useInactivitySignOut } from '../session/useInactivitySignOut';
import { guard } from './guard';

const ExternalRedirect = ({ to }: { to: string }) => {
  useEffect(() => {
    window.location.replace(to);
  }, [to]);
  return null;
};

const Loading = () => {
  const { t } = useTranslation();
  return (
    <Box sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center' }}>
      <CircularProgress aria-label={t('common.loading')} />
    </Box>
  );
};

/**
 * Root of every route: waits for the session check, applies the navigation guard to the current
 * location, blocks navigation while offline, and frames the page.
 */
export const RootLayout = () => {
  const location = useLocation();
  const session = useSession();
  const host = useHostBranding();
  const online = useOnline();
  const user = session.user;
  const userLocale = user?.locale;

  usePush(user?.id ?? null);
  usePendingInvite(user?.id ?? null, location.search);
  useInactivitySignOut(user?.id ?? null, user?.sessionTimeout ?? null);

  useEffect(() => {
    if (userLocale) void applyLocale(userLocale);
  }, [userLocale]);

  const blocker = useBlocker(({ nextLocation }) => guard({ path: nextLocation.pathname, user, online }).action === 'block');
  const lastBlockNotice = useRef(0);
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    blocker.reset();
    if (Date.now() - lastBlockNotice.current > 3000) {
      lastBlockNotice.current = Date.now();
      noticeStore.push({ severity: 'warning', key: 'offline.blocked' });
    }
  }, [blocker]);

  // the guard needs to know whether this is a team's custom host (asked once at start)
  if (session.status === 'loading' || host.status === 'loading') return <Loading />;
  const customHost = host.branding;

  // The page already shown stays while offline; only moving away is blocked.
  const decision = guard({
    path: location.pathname,
    search: location.search,
    user,
    online: true,
    signedOutReason: session.signedOutReason,
    isCustomHost: appConfig.isCustomHost || customHost !== null,
    mainOrigin: customHost?.mainUrl ?? appConfig.mainOrigin,
    explorerBaseUrl: appConfig.explorerBaseUrl,
  });
  if (decision.action === 'redirect') {
    return decision.external ? <ExternalRedirect to={decision.to} /> : <Navigate to={decision.to} replace />;
  }

  const Frame = user ? AppShell : PublicLayout;
  return (
    <>
      {!online && <OfflineBanner />}
      <Frame>
        <Outlet />
      </Frame>
      <TermsAcceptanceDialog />
      <Notices />
    </>
  );
};
