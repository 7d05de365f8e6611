import { ES } from './describe-event.es';
import { NL } from './describe-event.nl';
import { PT } from './describe-event.pt';
import {
  axel,
  count,
  grantsIn,
  type Data,
  deviceIn,
  discountIn,
  quoted,
  type Sentence,
  short,
  text,
  usd,
  type Writers,
  writersFor,
} from './describe-event.words';

/**
 * The activity log in words: one sentence per event type, from the event's own data, so an
 * auditor reads "Renamed an item to report.pdf" instead of JSON. Pure: the API writes the sentence
 * of every row it answers, and a unit test fails when a registered event type has none.
 */

/** The locales the console speaks; an unknown one reads as English. */
export const ACTIVITY_LOCALES = ['en', 'es', 'pt', 'nl'] as const;
export type ActivityLocale = (typeof ACTIVITY_LOCALES)[number];

/** A language tag as an activity locale: "pt_br", "pt-BR", "pt" -> "pt"; "es_mx" -> "es"; anything unknown -> "en". */
export const activityLocaleOf = (tag: string | null | undefined): ActivityLocale => {
  const language = (tag ?? '').trim().slice(0, 2).toLowerCase();
  return (ACTIVITY_LOCALES as readonly string[]).includes(language) ? (language as ActivityLocale) : 'en';
};

export interface DescribableEvent {
  readonly type: string;
  readonly data: unknown;
}

const cycle = (value: unknown): string => (value === 'month' ? 'monthly' : value === 'year' ? 'yearly' : text(value));
const until = (value: unknown, w: Writers): string => (value ? ` until ${w.when(value)}` : '');
const STORAGE_KINDS: Readonly<Record<string, string>> = {
  online: 'Online',
  group: 'Group',
  cloudlocker: 'CloudLocker',
  personal: 'Personal',
  business_personal: 'Business personal',
};
const CANCELLERS: Readonly<Record<string, string>> = { user: 'by the user', staff: 'by staff', plan_change: 'by a plan change', system: 'by the system' };
const by = (value: unknown): string => (value ? ` ${CANCELLERS[String(value)] ?? `by ${text(value)}`}` : '');
const device = deviceIn('from', 'on');
const secondFactor = (method: unknown): string => (method === 'totp' ? 'authenticator app' : method === 'email' ? 'e-mail code' : text(method));
const discount = discountIn((amount) => `${amount} off`);

const FORBIDDEN: Readonly<Record<string, string>> = { dropbox: 'use Dropbox', createRootFolder: 'create top-level folders' };
const LEVELS: Readonly<Record<string, string>> = { none: 'no access', view: 'view', download: 'download', edit: 'edit', full: 'full' };
const minutes = (ms: unknown): string => count(Math.round(Number(ms) / 60_000), 'minute');
const EN: Readonly<Record<string, Sentence>> = {
  // accounts
  UserRegistered: (d) =>
    d.createdByStaffId
      ? `Account ${text(d.email)} created by staff as ${text(d.role)}`
      : `Signed up as ${text(d.email)}${d.registrationApp ? ` in ${text(d.registrationApp)}` : ''}`,
  EmailConfirmationRequested: (d) => `Confirmation e-mail sent to ${text(d.email)}`,
  EmailConfirmed: (d) => `E-mail address ${text(d.email)} confirmed`,
  SignInSucceeded: (d) => `Signed in${device(d.userAgent)}`,
  SignInFailed: (d) =>
    `Sign-in failed: wrong ${d.reason === 'two_factor' ? 'verification code' : 'password'} (attempt ${text(d.failedAttempts, '1')})${device(d.userAgent)}`,
  UserLocked: (d, w) => `Sign-in locked${until(d.until, w)} after ${count(d.failedAttempts, 'failed attempt')}`,
  UserUnlocked: () => 'Sign-in unlocked by a password reset',
  TwoFactorChallengeIssued: (d) => `Asked for a verification code (${secondFactor(d.method)})`,
  TwoFactorCodeIssued: (d) => `Verification code sent by e-mail${d.purpose ? ` (${text(d.purpose)})` : ''}`,
  TotpEnrolmentStarted: () => 'Authenticator app setup started',
  TwoFactorEnabled: (d) => `Two-factor sign-in turned on (${secondFactor(d.method)})`,
  TwoFactorDisabled: (d) => (d.via === 'reset' ? 'Two-factor sign-in turned off through a reset link' : 'Two-factor sign-in turned off'),
  TwoFactorResetRequested: () => 'Two-factor reset link sent',
  PasswordResetRequested: () => 'Password reset link sent',
  PasswordChanged: (d) => (d.via === 'reset' ? 'Password changed through a reset link' : 'Password changed'),
  EmailChangeRequested: (d) => `E-mail change to ${text(d.newEmail)} requested`,
  EmailChanged: (d) => `E-mail changed from ${text(d.oldEmail)} to ${text(d.newEmail)}`,
  ProfileUpdated: (d) => `Profile updated: ${text(d.changes, 'no fields')}`,
  AccountSettingsChanged: (d) => {
    const changed = ['username', 'sessionTimeout', 'locale'].filter((k) => d[k] !== undefined);
    if (d.username !== undefined) return `Account settings changed: username ${d.username === null ? 'removed' : `set to ${text(d.username)}`}`;
    return `Account settings changed: ${changed.join(', ') || 'nothing'}`;
  },
  AvatarChanged: (d, w) => (d.avatarId ? `Profile picture changed (${text(d.mime)}, ${w.bytes(d.size)})` : 'Profile picture removed'),
  TermsAccepted: () => 'Terms accepted',
  RoleChanged: (d) => `Role changed from ${text(d.from)} to ${text(d.to)}`,
  UserSuspended: (d) => (d.reason ? `Suspended (${text(d.reason)})` : 'Suspended'),
  UserUnsuspended: () => 'Suspension lifted',
  UserBlocked: (d, w) => `Blocked${until(d.until, w)}`,
  UserUnblocked: () => 'Block lifted',
  DbsAccessActivated: () => 'Database access given',
  DbsAccessCancelled: () => 'Database access cancelled',
  AccountDeleted: (d) =>
    d.by === 'staff'
      ? `Account ${text(d.email)} deleted by staff`
      : d.by === 'non_payment'
        ? `Account ${text(d.email)} deleted for non-payment`
        : `Account ${text(d.email)} deleted by its owner`,
  AccountPurged: () => 'Account purged: its personal data is forgotten',
  AccountDeactivatedForNonPayment: () => 'Account deactivated for non-payment',
  EmailReserved: (d) => `E-mail address reserved for user ${short(d.userId)}`,
  EmailReleased: (d) => `E-mail address released by user ${short(d.userId)}`,
  UsernameReserved: (d) => `Username reserved for user ${short(d.userId)}`,
  UsernameReleased: (d) => `Username released by user ${short(d.userId)}`,
  // mail and notifications
  MailRequested: (d) => `Mail "${text(d.template)}" queued for ${text(d.to)}`,
  MailDelivered: (d) => `Mail delivered${d.transport ? ` over ${text(d.transport)}` : ''}`,
  MailFailed: (d) => `Mail delivery failed${d.final ? ' for good' : `, attempt ${text(d.attempt)}`}: ${text(d.error)}`,
  NotificationsSeen: (d) => `${count(d.ids, 'notification')} marked as seen`,
  NotificationsDeleted: (d) => `${count(d.ids, 'notification')} deleted`,
  // storage
  StorageOpened: (d, w) => `${STORAGE_KINDS[String(d.type)] ?? text(d.type)} storage of ${w.bytes(d.sizeTotal)} opened`,
  StorageQuotaChanged: (d, w) => `Storage quota set to ${w.bytes(d.sizeTotal)}`,
  StoragePurged: (d) => `Storage purged (${count(d.destroyed, 'item')} destroyed)`,
  QuotaReserved: (d, w) => `${w.bytes(d.size)} reserved for an upload`,
  QuotaReleased: () => 'Upload reservation released',
  FileAdded: (d, w) =>
    `${d.copiedFrom ? 'Copied' : 'Uploaded'} file ${quoted(d.name)} (${w.bytes(d.size)}${d.encrypted || d.e2eeEnabled ? ', end-to-end encrypted' : ''})`,
  FolderCreated: (d) => `${d.copiedFrom ? 'Copied' : 'Created'} folder ${quoted(d.name)}`,
  ItemRenamed: (d) => `Renamed an item to ${quoted(d.name)}`,
  ItemMoved: (d) => (d.parentId ? 'Moved an item to another folder' : 'Moved an item to the top folder'),
  ItemDetailsChanged: (d) => `Changed the details of an item: ${text(d.details, 'none')}`,
  ItemExpirySet: (d, w) => (d.expiresAt ? `Set an item to expire at ${w.when(d.expiresAt)}` : 'Removed the expiry of an item'),
  ItemTrashed: (d, w) => `Moved an item to the trash (${w.bytes(d.size)})`,
  ItemRestored: (d) => `Restored ${quoted(d.name)} from the trash`,
  ItemDeleted: (d, w) =>
    `Deleted an item for good (${w.bytes(d.size)}${Array.isArray(d.descendantIds) && d.descendantIds.length ? `, with ${count(d.descendantIds, 'item')} inside` : ''})`,
  // billing
  CheckoutStarted: (d, w) =>
    `Checkout started for ${w.product(d.productId)} x${text(d.quantity, '1')} at ${usd(d.amount)}${d.promo ? ' with a promo code' : ''}`,
  CheckoutLinkIssued: () => 'Payment link issued',
  CheckoutDeclined: () => 'Payment declined',
  SubscriptionStarted: (d, w) => `Subscription to ${w.product(d.productId)} started (${cycle(d.cycle)}), next payment ${w.when(d.nextPaymentDate, 'none')}`,
  SubscriptionRenewed: (d, w) => `Subscription renewed, next payment ${w.when(d.nextPaymentDate)}`,
  SubscriptionCanceled: (d, w) => `Subscription canceled${by(d.by)}, ends ${w.when(d.endDate)}`,
  PaymentRecorded: (d, w) =>
    `Payment of ${usd(d.amount)} for ${w.product(d.productId)}: ${text(d.status)}${d.promoCode ? ` (promo ${text(d.promoCode)})` : ''}`,
  RenewalFailed: (d, w) => `Renewal payment failed; grace period until ${w.when(d.graceEndDate)}`,
  UnpaidStorageDeletionDue: () => 'Unpaid storage is due for deletion',
  PlanChangedByStaff: (d) => `Plan changed by staff from ${text(d.previousPlan)} to ${text(d.plan)}`,
  PromoCodeCreated: (d) => `Promo code ${text(d.code)} created (${text(d.status)}${discount(d.discount)})`,
  PromoCodeUpdated: (d) => `Promo code terms updated${discount(d.discount)}`,
  PromoCodeStatusChanged: (d) => `Promo code ${d.status === 'active' ? 'activated' : 'deactivated'}`,
  PromoCodeDeleted: () => 'Promo code deleted',
  PromoCodeUsed: (d) => `Promo code used by user ${short(d.userId)}`,
  PromoCodeUseReserved: (d) => `Promo code use held for a checkout of user ${short(d.userId)}`,
  PromoCodeUseReleased: (d) => `Promo code use released (${text(d.reason)})`,
  // wallet
  WalletAddressesCreated: () => 'Wallet addresses created',
  WalletSendNoted: (d) => `Note on a sent transaction: ${text(d.note)}`,
  WalletDataForgotten: () => 'Wallet notes forgotten',
  ContactAdded: (d) => `Contact ${text(d.nickname)} added`,
  ContactChanged: (d) => `Contact ${text(d.nickname)} changed`,
  ContactRemoved: () => 'Contact removed',
  ContactsForgotten: () => 'Contacts forgotten',
  ChainBlockMined: (d) => `Block ${text(d.height)} mined with ${count(d.txids, 'transaction')}`,
  ChainCoinsMinted: (d) => `${axel(d.amount)} minted to ${text(d.to)}`,
  ChainTransferAccepted: (d) => `${axel(d.amount)} sent from ${text(d.from)} to ${text(d.to)}`,
  // bookmarks and share visits
  BookmarkAdded: (d) => `Bookmarked a share as ${quoted(d.description)}`,
  BookmarkRenamed: (d) => `Renamed a bookmark to ${quoted(d.description)}`,
  BookmarkMoved: (d) => (d.bookmarkListId ? 'Moved a bookmark into a list' : 'Took a bookmark out of its list'),
  BookmarkRemoved: () => 'Removed a bookmark',
  BookmarkListCreated: (d) => `Created the bookmark list ${quoted(d.name)}`,
  BookmarkListRenamed: (d) => `Renamed a bookmark list to ${quoted(d.name)}`,
  BookmarkListDeleted: () => 'Deleted a bookmark list',
  BookmarksForgotten: () => 'Bookmarks forgotten',
  // two-factor lock
  LockCodeIssued: () => 'Verification code sent by e-mail for a two-factor lock',
  LockCodeRejected: (d) => `Wrong verification code typed (${d.purpose === 'lock' ? 'to lock' : d.purpose === 'unlock' ? 'to unlock' : 'to open'} an item)`,
  ItemTwoFactorLocked: (d) => `Locked an item with two-factor verification (${secondFactor(d.method)})`,
  ItemTwoFactorUnlocked: (d) => `Removed the two-factor lock of an item (${secondFactor(d.method)})`,
  LockAccessGranted: (d) => `Opened a locked item with a verification code (${secondFactor(d.method)})`,
  LockedItemOpened: (d) => `Used a locked item (${text(d.action)})`,
  // end-to-end encryption
  E2eeKeySet: () => 'End-to-end passphrase set',
  E2eePassphraseChanged: () => 'End-to-end passphrase changed (same key)',
  E2eeKeyReset: () => 'End-to-end passphrase reset (new key: older files can no longer be opened)',
  E2eeDefaultsChanged: (d) => `End-to-end encryption of new uploads turned ${d.encryptionDefault ? 'on' : 'off'}`,
  E2eeKeysForgotten: () => 'End-to-end keys forgotten',
  ShareSignatureAdded: (d) => `Signature kept for shared file ${quoted(d.signedFileName)}`,
  ShareSignaturesForgotten: () => 'Shared file signatures forgotten',
  // teams
  TeamCreated: (d) => `Team opened on the ${text(d.planKind)} plan`,
  TeamPlanChanged: (d) => `Team moved to the ${text(d.planKind)} plan`,
  TeamMemberInvited: (d, w) => `Member invited by e-mail with a quota of ${w.bytes(d.quotaBytes)}`,
  TeamInviteLinkCreated: () => 'Team invite link created',
  TeamInviteLinkRevoked: () => 'Team invite link revoked',
  TeamMemberJoined: (d) => (d.via === 'link' ? 'Joined the team through its invite link' : 'Joined the team through an invite'),
  TeamMemberRemoved: () => 'Member removed from the team',
  TeamMemberSuspended: () => 'Team member suspended',
  TeamMemberUnsuspended: () => 'Team member reinstated',
  TeamMemberQuotaSet: (d, w) => `Member quota set to ${w.bytes(d.quotaBytes)}`,
  TeamMemberRoleChanged: (d) => (d.role === 'co_admin_member' ? 'Member made a co-admin' : 'Co-admin made a member'),
  TeamMemberForbiddenActionsSet: (d) =>
    Array.isArray(d.actions) && d.actions.length
      ? `Member may no longer: ${d.actions.map((a) => FORBIDDEN[String(a)] ?? text(a)).join(', ')}`
      : 'Member may do everything again',
  TeamGroupCreated: (d) => `Group ${quoted(d.name)} created`,
  TeamGroupRenamed: (d) => `Group renamed to ${quoted(d.name)}`,
  TeamGroupDeleted: () => 'Group deleted',
  TeamGroupMembersSet: (d) => `Group members set (${count(d.memberIds, 'member')})`,
  TeamItemPermissionsSet: (d) => `Folder permissions set: ${grantsIn(d.grants, LEVELS, 'no one')}`,
  TeamClosed: (d) => (d.reason === 'downgrade' ? 'Team closed by a plan change' : "Team closed with its owner's account"),
  TeamForgotten: () => 'Team forgotten',
  TeamBrandingNameSet: (d) => (d.companyName ? `Team name or slogan set to ${quoted(d.companyName)}` : 'Team name or slogan removed'),
  TeamLogoSet: (d) => `Team logo set (${d.width}x${d.height})`,
  TeamLogoRemoved: () => 'Team logo removed',
  TeamCustomUrlSet: (d) => `Custom URL set to ${quoted(d.subdomain)}`,
  TeamCustomUrlRemoved: (d) => `Custom URL ${quoted(d.subdomain)} removed`,
  TeamBrandingForgotten: () => 'Team branding forgotten',
  CustomUrlReserved: () => 'Custom URL taken by a team',
  CustomUrlReleased: () => 'Custom URL given back',
  TeamInviteIssued: () => 'Team invite sent',
  TeamInviteClosed: (d) => (d.outcome === 'accepted' ? 'Team invite accepted' : 'Team invite withdrawn'),
  TeamMembershipTaken: () => 'Became a member of a team',
  TeamMembershipReleased: () => 'Left a team',
  ShareOpened: (d) =>
    `${d.kind === 'private' ? 'Private' : 'Public'} share opened${d.recipientEmail ? ` by ${text(d.recipientEmail)}` : ''}${d.firstOpen ? ' for the first time' : ''}`,
  ShareDownloaded: (d) => `${d.archive ? 'Archive' : 'File'} downloaded from a share${d.recipientEmail ? ` by ${text(d.recipientEmail)}` : ''}`,
  ShareAccessForgotten: () => "A share's visitors forgotten",
  // shares
  ShareCreated: (d, w) =>
    `${d.kind === 'private' ? 'Private' : 'Public'} share ${quoted(d.title)} created with ${count(d.items, 'item')} (${w.bytes(d.totalSize)})${
      Array.isArray(d.recipients) && d.recipients.length ? ` for ${count(d.recipients, 'recipient')}` : ''
    }`,
  ShareEdited: (d) =>
    `Share edited: ${
      ['title', 'description', 'expiresAt', 'downloadable', 'requireLogin', 'passwordHash']
        .filter((k) => d[k] !== undefined)
        .map((k) => (k === 'passwordHash' ? 'password' : k))
        .join(', ') || 'nothing'
    }`,
  ShareRevoked: () => 'Share revoked',
  ShareDeleted: () => 'Share deleted',
  ShareRecipientsResent: (d) => `Share mail sent again to ${count(d.recipients, 'recipient')}`,
  ShareRecipientBlocked: (d) => `Recipient ${text(d.email)} blocked from the share`,
  ShareRecipientUnblocked: (d) => `Recipient ${text(d.email)} unblocked`,
  ShareCounted: (d) => `Share counted against the plan for ${text(d.period)}`,
  ShareExpiryReminded: (d) => `Owner reminded that the share expires in ${count(d.daysLeft, 'day')}`,
  ShareForgotten: () => 'Share forgotten with its purged owner',
  CartOpened: () => 'Upload-and-share cart opened',
  CartEntriesAdded: (d) => `${count(d.fileIds, 'file')} added to the cart`,
  CartEntryRemoved: () => 'A file removed from the cart',
  CartShareStarted: () => 'Sharing the cart started',
  CartShareAbandoned: () => 'Sharing the cart abandoned',
  CartShared: () => 'Cart shared',
  // secure fetch
  SecureFetchCreated: (d, w) => `Secure Fetch link created (${text(d.type)})${d.expiresAt ? `, expires ${w.when(d.expiresAt)}` : ''}`,
  SecureFetchRevoked: () => 'Secure Fetch link revoked',
  SecureFetchSubmitted: (d, w) => `${count(d.files ?? d.itemIds, 'file')} submitted through Secure Fetch (${w.bytes(d.totalSize)})`,
  SecureFetchItemOpened: () => 'A file received through Secure Fetch was opened',
  SecureFetchPaymentStarted: () => 'Secure Fetch certificate payment started',
  SecureFetchPaymentFailed: (d) => `Secure Fetch payment refused: ${text(d.refusedWith)}`,
  SecureFetchPaid: (d) => `Secure Fetch paid: ${axel(d.amount)}`,
  SecureFetchFilesCollected: (d) => `${count(d.itemIds, 'file')} collected from Secure Fetch`,
  SecureFetchForgotten: () => 'Secure Fetch link forgotten with its purged owner',
  SecureFetchCounted: () => 'Secure Fetch link counted against the plan',
  // auto-pay programs
  AutoPayProgramCreated: (d) => `Auto-pay program ${quoted(d.name)} created`,
  AutoPayProgramEdited: (d) => `Auto-pay program renamed or described as ${quoted(d.name)}`,
  AutoPayPayeeAdded: (d) => `Payee ${text(d.payeeName)} added for ${axel(d.amount)}`,
  AutoPayPayeeChanged: (d) => `Payee ${text(d.payeeName)} changed to ${axel(d.amount)}`,
  AutoPayPayeeRemoved: () => 'Payee removed',
  AutoPayPayeesImported: (d) => `${count(d.payees, 'payee')} imported${d.replaced ? ', replacing the list' : ''}`,
  AutoPayProgramSubmitted: (d) => `Submission ${text(d.submission)} sent for approval`,
  AutoPayProgramReturnedToDraft: (d) => `Submission ${text(d.submission)} withdrawn: the program was changed`,
  AutoPayApprovalReminded: (d) => `Approvers reminded of submission ${text(d.submission)}`,
  AutoPayProgramApproved: (d) => `Submission ${text(d.submission)} approved`,
  AutoPayProgramRejected: (d) => (d.cause === 'expired' ? `Submission ${text(d.submission)} expired unapproved` : `Submission ${text(d.submission)} rejected`),
  AutoPayProgramLocked: () => 'Program locked',
  AutoPayProgramUnlocked: () => 'Program unlocked',
  AutoPayProgramCancelled: (d) => `Submission ${text(d.submission)} cancelled`,
  AutoPayPayoutStarted: (d) => `Payout of submission ${text(d.submission)} started (attempt ${text(d.attempt)})`,
  AutoPayPayeePaid: (d) => `Payee paid in transaction ${short(d.txid)}`,
  AutoPayPayeePayoutFailed: (d) => `Payment to a payee failed: ${text(d.failure)}`,
  AutoPayPayoutFinished: (d) => `Payout finished: ${text(d.paid, '0')} paid, ${text(d.failed, '0')} failed`,
  AutoPayRetryRequested: (d) => `Retry of the failed payments requested (attempt ${text(d.attempt)})`,
  AutoPayNameReserved: () => 'Program name reserved',
  AutoPayNameReleased: () => 'Program name released',
  // storage upkeep
  BlobMaintenanceScheduled: (d) => `Storage upkeep scheduled: scrub every ${minutes(d.scrubEveryMs)}, collection every ${minutes(d.collectEveryMs)}`,
  // IPFS pins, connected apps, devices, backups, regions, e-sign
  IpfsPinRequested: () => 'IPFS pin requested',
  IpfsPinStarted: () => 'IPFS pinning started',
  IpfsPinPinned: () => 'Pinned on IPFS',
  IpfsPinFailed: () => 'IPFS pinning failed',
  IpfsPinRetried: () => 'IPFS pinning retried',
  IpfsPinRemoved: () => 'Unpinned from IPFS',
  IpfsGatewayChosen: () => 'Preferred IPFS gateway chosen',
  IpfsSettingsForgotten: () => 'IPFS settings forgotten',
  AppConnected: () => 'App connected',
  AppDisconnected: () => 'App disconnected',
  DropboxFileImported: () => 'File imported from Dropbox',
  DropboxFileUploaded: () => 'File uploaded to Dropbox',
  ClioDocumentFiled: () => 'Document filed to a Clio matter',
  IntegrationsForgotten: () => 'Connected apps forgotten',
  CloudLockerRegistered: () => 'CloudLocker registered its key',
  CloudLockerCheckedIn: () => 'CloudLocker checked in',
  CloudLockerSizeReported: () => 'CloudLocker reported its size',
  CloudLockerClaimOpened: () => 'CloudLocker claim started',
  CloudLockerBound: () => 'CloudLocker bound to an account',
  CloudLockerUnbound: () => 'CloudLocker unbound',
  CloudLockerDeleted: () => 'CloudLocker deleted',
  BackupDeviceRegistered: () => 'Backup device added',
  BackupDeviceSeen: () => 'Backup device seen',
  BackupPathsChanged: () => 'Backup paths changed',
  BackupStopped: () => 'Backup stopped',
  BackupResumed: () => 'Backup resumed',
  BackupsForgotten: () => 'Backup devices forgotten',
  RegionChosen: () => 'Storage region chosen for new uploads',
  EsignPackageCreated: () => 'E-sign package created',
  EsignEntryAdded: () => 'Document added to an e-sign package',
  EsignEntryRemoved: () => 'Document removed from an e-sign package',
  EsignSignerAdded: () => 'Signer added',
  EsignSignerRemoved: () => 'Signer removed',
  EsignPinPlaced: () => 'Signing field placed',
  EsignPinRemoved: () => 'Signing field removed',
  EsignPackageSent: () => 'E-sign package sent for signature',
  EsignSignerSigned: () => 'Signer signed',
  EsignSignerFinished: () => 'Signer finished',
  EsignPackageCompleted: () => 'E-sign package completed and sealed',
  EsignPackageArchived: () => 'E-sign package archived',
  EsignPackageUnarchived: () => 'E-sign package taken out of the archive',
  EsignPackageDeleted: () => 'E-sign package deleted',
  EsignPackageForgotten: () => 'E-sign package forgotten',
};

const SENTENCES: Readonly<Record<ActivityLocale, Readonly<Record<string, Sentence>>>> = { en: EN, es: ES, pt: PT, nl: NL };

/** "SomeNewEvent" -> "Some new event": an event without a sentence still reads as words. */
export const humanizeEventType = (type: string): string => {
  const words = type
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** The event types worded in a locale (a translation of a type English does not word is stale). */
export const sentenceTypes = (locale: ActivityLocale): string[] => Object.keys(SENTENCES[locale]);

/** Whether an event type has its own sentence in this locale. */
export const hasSentence = (type: string, locale: ActivityLocale = 'en'): boolean => Object.hasOwn(SENTENCES[locale], type);

/** The language tag each activity locale writes numbers and dates in (the console's own). */
const TAG_OF: Readonly<Record<ActivityLocale, string>> = { en: 'en-US', es: 'es-MX', pt: 'pt-BR', nl: 'nl-NL' };

export interface DescribeOptions {
  /** The reader's IANA time zone ("Europe/Lisbon"); instants in sentences read in it. UTC when absent or unknown. */
  readonly timeZone?: string;
}

// a page words many rows in one language and zone: their formatters are made once
const writersCache = new Map<string, Writers>();
const writersOf = (locale: ActivityLocale, timeZone: string | undefined): Writers => {
  const key = `${locale} ${timeZone ?? ''}`;
  let writers = writersCache.get(key);
  if (!writers) {
    if (writersCache.size > 200) writersCache.clear();
    writers = writersFor(TAG_OF[locale], timeZone);
    writersCache.set(key, writers);
  }
  return writers;
};

/** The event as one sentence in the locale; an unknown type (or unreadable data) reads as its type in words. */
export const describeEvent = (event: DescribableEvent, locale: string = 'en', options: DescribeOptions = {}): string => {
  const language = activityLocaleOf(locale);
  const table = SENTENCES[language];
  const sentence = Object.hasOwn(table, event.type) ? table[event.type] : undefined;
  if (!sentence) return humanizeEventType(event.type);
  const data = event.data && typeof event.data === 'object' && !Array.isArray(event.data) ? (event.data as Data) : {};
  try {
    return sentence(data, writersOf(language, options.timeZone));
  } catch {
    return humanizeEventType(event.type);
  }
};
