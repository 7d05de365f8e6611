import type { ReactElement } from 'react';
import { AdminHandoff } from '../components/AdminHandoff';
import { NotAvailablePage } from '../components/NotAvailablePage';
import { AppAuthPage } from '../features/apps/AppAuthPage';
import { ClioPage } from '../features/apps/ClioPage';
import { DropboxPage } from '../features/apps/DropboxPage';
import { EsignReceiverPage } from '../features/esign-receiver/EsignReceiverPage';
import { ManageAppsPage } from '../features/apps/ManageAppsPage';
import { BrandingPage, CustomUrlPage } from '../features/branding/BrandingPages';
import { BookmarksPage } from '../features/bookmarks/BookmarksPage';
import { UnlockerPage } from '../features/unlocker/UnlockerPage';
import { CloudLockerFilesPage } from '../features/devices/CloudLockerFilesPage';
import { MembersActivityPage } from '../features/members/MembersActivityPage';
import { GroupsPage } from '../features/members/GroupsPage';
import { EsignPage } from '../features/esign/EsignPage';
import { MembersPage } from '../features/members/MembersPage';
import { MembersSettingsPage } from '../features/members/MembersSettingsPage';
import { FileBrowserPage } from '../features/files/FileBrowserPage';
import { TrashPage } from '../features/files/TrashPage';
import { FetchUploadPage } from '../features/secure-fetch/FetchUploadPage';
import { SecureFetchPage } from '../features/secure-fetch/SecureFetchPage';
import { VerifyCertificatePage } from '../features/secure-fetch/VerifyCertificatePage';
import { CheckoutPage } from '../features/billing/CheckoutPage';
import { GroupPage } from '../features/billing/GroupPage';
import { SlotsPage } from '../features/billing/SlotsPage';
import { PaymentResultPage } from '../features/billing/PaymentResultPage';
import { PlansPage } from '../features/billing/PlansPage';
import { StorageManagementPage } from '../features/billing/StorageManagementPage';
import { SubscriptionManagePage } from '../features/billing/SubscriptionManagePage';
import { PasswordResetPage } from '../features/password-reset/PasswordResetPage';
import { ChangeEmailConfirmationPage } from '../features/settings/ChangeEmailConfirmationPage';
import { DeletedAccountPage } from '../features/settings/DeletedAccountPage';
import { SettingsPage } from '../features/settings/SettingsPage';
import { ShareLinkRoute, SharesSharedRoute } from '../features/sharing/routes';
import { SharesPage } from '../features/sharing/SharesPage';
import { SignInPage } from '../features/signin/SignInPage';
import { SlackAuthPage } from '../features/slack/SlackAuthPage';
import { SsoCallbackPage } from '../features/sso/SsoCallbackPage';
import { EmailConfirmationPage } from '../features/signup/EmailConfirmationPage';
import { ResendPage } from '../features/signup/ResendPage';
import { SignUpPage } from '../features/signup/SignUpPage';
import { Reset2faPage } from '../features/two-factor/Reset2faPage';
import { TransactionSearchPage } from '../features/wallet/TransactionSearchPage';
import { TransactionIdPage } from '../features/wallet/TransactionIdPage';
import { WalletPage } from '../features/wallet/WalletPage';
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
  files: () => <FileBrowserPage />,
  trash: () => <TrashPage />,
  cloudlocker: () => <CloudLockerFilesPage />,
  wallet: () => <WalletPage />,
  transactionSearch: () => <TransactionSearchPage />,
  transactionId: () => <TransactionIdPage />,
  storageManagement: () => <StorageManagementPage />,
  plans: () => <PlansPage />,
  upgrade: () => <PlansPage upgrade />,
  slots: () => <SlotsPage />,
  group: () => <GroupPage />,
  checkout: () => <CheckoutPage />,
  subscription: () => <SubscriptionManagePage />,
  paymentResult: () => <PaymentResultPage />,
  shares: () => <SharesPage />,
  shareLink: () => <ShareLinkRoute />,
  sharesShared: () => <SharesSharedRoute />,
  bookmarks: () => <BookmarksPage />,
  members: () => <MembersPage />,
  groups: () => <GroupsPage />,
  membersActivity: () => <MembersActivityPage />,
  membersSettings: () => <MembersSettingsPage />,
  secureFetch: () => <SecureFetchPage />,
  secureFetchUpload: () => <FetchUploadPage />,
  verifyCertificate: () => <VerifyCertificatePage />,
  dropbox: () => <DropboxPage />,
  manageApps: () => <ManageAppsPage />,
  dropboxAuth: () => <AppAuthPage app="dropbox" />,
  clioAuth: () => <AppAuthPage app="clio" />,
  clio: () => <ClioPage />,
  ssoCallback: () => <SsoCallbackPage />,
  slackAuth: () => <SlackAuthPage />,
  esignReceiver: () => <EsignReceiverPage />,
  esign: () => <EsignPage />,
  branding: () => <BrandingPage />,
  customUrl: () => <CustomUrlPage />,
  unlocker: () => <UnlockerPage />,
  notAvailable: () => <NotAvailablePage />,
};
