import type { ReactElement } from 'react';
import { AdminHandoff } from '../components/AdminHandoff';
import { NotAvailablePage } from '../components/NotAvailablePage';
import { PasswordResetPage } from '../features/password-reset/PasswordResetPage';
import { ChangeEmailConfirmationPage } from '../features/settings/ChangeEmailConfirmationPage';
import { DeletedAccountPage } from '../features/settings/DeletedAccountPage';
import { SettingsPage } from '../features/settings/SettingsPage';
import { SignInPage } from '../features/signin/SignInPage';
import { EmailConfirmationPage } from '../features/signup/EmailConfirmationPage';
import { ResendPage } from '../features/signup/ResendPage';
import { SignUpPage } from '../features/signup/SignUpPage';
import { Reset2faPage } from '../features/two-factor/Reset2faPage';
import { WelcomePage } from '../features/welcome/WelcomePage';
import type { Screen } from './routeTable';

/** What each screen of the route table renders. */
export const SCREENS: Record<Screen, () => ReactElement | null> = {
  // The guard redirects these paths before anything renders.
  redirect: () => null,
  welcome: () => <WelcomePage />,
  settings: () => <SettingsPage />,
  signin: () => <SignInPage />,
  signup: () => <SignUpPage />,
  resend: () => <ResendPage />,
  emailConfirmation: () => <EmailConfirmationPage />,
  changeEmailConfirmation: () => <ChangeEmailConfirmationPage />,
  resetPassword: () => <PasswordResetPage />,
  reset2fa: () => <Reset2faPage />,
  deletedAccount: () => <DeletedAccountPage />,
  adminHandoff: () => <AdminHandoff />,
  notAvailable: () => <NotAvailablePage />,
};
