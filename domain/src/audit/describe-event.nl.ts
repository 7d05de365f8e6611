import { axel, count, grantsIn, deviceIn, discountIn, quoted, type Sentence, short, text, usd, type Writers } from './describe-event.words';

/** The activity log's sentences in Dutch (one per event type, like the English ones). */
const t = (value: unknown, fallback = 'onbekend'): string => text(value, fallback);
const cycle = (value: unknown): string => (value === 'month' ? 'maandelijks' : value === 'year' ? 'jaarlijks' : t(value));
const until = (value: unknown, w: Writers): string => (value ? ` tot ${w.when(value)}` : '');
const CANCELLERS: Readonly<Record<string, string>> = {
  user: 'door de gebruiker',
  staff: 'door medewerkers',
  plan_change: 'door een planwijziging',
  system: 'door het systeem',
};
const by = (value: unknown): string => (value ? ` ${CANCELLERS[String(value)] ?? `door ${t(value)}`}` : '');
const device = deviceIn('vanaf', 'op');
const secondFactor = (method: unknown): string => (method === 'totp' ? 'authenticator-app' : method === 'email' ? 'code per e-mail' : t(method));
const discount = discountIn((amount) => `${amount} korting`);
const kind = (d: { kind?: unknown }): string => (d.kind === 'private' ? 'Privé' : 'Openbare');

const FORBIDDEN: Readonly<Record<string, string>> = { dropbox: 'Dropbox gebruiken', createRootFolder: 'mappen op het hoogste niveau maken' };
const LEVELS: Readonly<Record<string, string>> = { none: 'geen toegang', view: 'bekijken', download: 'downloaden', edit: 'bewerken', full: 'volledig' };
const minutes = (ms: unknown): string => count(Math.round(Number(ms) / 60_000), 'minuut', 'minuten');
export const NL: Readonly<Record<string, Sentence>> = {
  // accounts
  UserRegistered: (d) =>
    d.createdByStaffId
      ? `Account ${t(d.email)} door medewerkers aangemaakt als ${t(d.role)}`
      : `Aangemeld als ${t(d.email)}${d.registrationApp ? ` in ${t(d.registrationApp)}` : ''}`,
  EmailConfirmationRequested: (d) => `Bevestigingsmail verstuurd naar ${t(d.email)}`,
  EmailConfirmed: (d) => `E-mailadres ${t(d.email)} bevestigd`,
  SignInSucceeded: (d) => `Ingelogd${device(d.userAgent)}`,
  SignInFailed: (d) =>
    `Inloggen mislukt: verkeerde ${d.reason === 'two_factor' ? 'verificatiecode' : 'wachtwoord'} (poging ${t(d.failedAttempts, '1')})${device(d.userAgent)}`,
  UserLocked: (d, w) => `Inloggen geblokkeerd${until(d.until, w)} na ${count(d.failedAttempts, 'mislukte poging', 'mislukte pogingen')}`,
  UserUnlocked: () => 'Inloggen vrijgegeven door een wachtwoordherstel',
  TwoFactorChallengeIssued: (d) => `Om een verificatiecode gevraagd (${secondFactor(d.method)})`,
  TwoFactorCodeIssued: (d) => `Verificatiecode per e-mail verstuurd${d.purpose ? ` (${t(d.purpose)})` : ''}`,
  TotpEnrolmentStarted: () => 'Instellen van de authenticator-app gestart',
  TwoFactorEnabled: (d) => `Tweestapsverificatie ingeschakeld (${secondFactor(d.method)})`,
  TwoFactorDisabled: (d) => (d.via === 'reset' ? 'Tweestapsverificatie uitgeschakeld via een herstellink' : 'Tweestapsverificatie uitgeschakeld'),
  TwoFactorResetRequested: () => 'Herstellink voor tweestapsverificatie verstuurd',
  PasswordResetRequested: () => 'Link om het wachtwoord te herstellen verstuurd',
  PasswordChanged: (d) => (d.via === 'reset' ? 'Wachtwoord gewijzigd via een herstellink' : 'Wachtwoord gewijzigd'),
  EmailChangeRequested: (d) => `Wijziging van e-mailadres naar ${t(d.newEmail)} aangevraagd`,
  EmailChanged: (d) => `E-mailadres gewijzigd van ${t(d.oldEmail)} naar ${t(d.newEmail)}`,
  ProfileUpdated: (d) => `Profiel bijgewerkt: ${t(d.changes, 'geen velden')}`,
  AccountSettingsChanged: (d) => {
    const changed = ['username', 'sessionTimeout', 'locale'].filter((k) => d[k] !== undefined);
    if (d.username !== undefined)
      return `Accountinstellingen gewijzigd: gebruikersnaam ${d.username === null ? 'verwijderd' : `ingesteld op ${t(d.username)}`}`;
    return `Accountinstellingen gewijzigd: ${changed.join(', ') || 'niets'}`;
  },
  AvatarChanged: (d, w) => (d.avatarId ? `Profielfoto gewijzigd (${t(d.mime)}, ${w.bytes(d.size)})` : 'Profielfoto verwijderd'),
  TermsAccepted: () => 'Voorwaarden geaccepteerd',
  RoleChanged: (d) => `Rol gewijzigd van ${t(d.from)} naar ${t(d.to)}`,
  UserSuspended: (d) => (d.reason ? `Geschorst (${t(d.reason)})` : 'Geschorst'),
  UserUnsuspended: () => 'Schorsing opgeheven',
  UserBlocked: (d, w) => `Geblokkeerd${until(d.until, w)}`,
  UserUnblocked: () => 'Blokkade opgeheven',
  DbsAccessActivated: () => 'Databasetoegang geactiveerd',
  DbsAccessCancelled: () => 'Databasetoegang opgezegd',
  AccountDeleted: (d) =>
    d.by === 'staff'
      ? `Account ${t(d.email)} verwijderd door medewerkers`
      : d.by === 'non_payment'
        ? `Account ${t(d.email)} verwijderd wegens niet-betaling`
        : `Account ${t(d.email)} verwijderd door de eigenaar`,
  AccountPurged: () => 'Account gewist: de persoonsgegevens zijn vergeten',
  AccountDeactivatedForNonPayment: () => 'Account gedeactiveerd wegens niet-betaling',
  EmailReserved: (d) => `E-mailadres gereserveerd voor gebruiker ${short(d.userId)}`,
  EmailReleased: (d) => `E-mailadres vrijgegeven door gebruiker ${short(d.userId)}`,
  UsernameReserved: (d) => `Gebruikersnaam gereserveerd voor gebruiker ${short(d.userId)}`,
  UsernameReleased: (d) => `Gebruikersnaam vrijgegeven door gebruiker ${short(d.userId)}`,
  // mail and notifications
  MailRequested: (d) => `E-mail "${t(d.template)}" in de wachtrij voor ${t(d.to)}`,
  MailDelivered: (d) => `E-mail afgeleverd${d.transport ? ` via ${t(d.transport)}` : ''}`,
  MailFailed: (d) => `Aflevering van e-mail mislukt${d.final ? ' (definitief)' : `, poging ${t(d.attempt)}`}: ${t(d.error)}`,
  NotificationsSeen: (d) => `${count(d.ids, 'melding', 'meldingen')} als gezien gemarkeerd`,
  NotificationsDeleted: (d) => `${count(d.ids, 'melding', 'meldingen')} verwijderd`,
  // storage
  StorageOpened: (d, w) => `${t(d.type)}-opslag van ${w.bytes(d.sizeTotal)} geopend`,
  StorageQuotaChanged: (d, w) => `Opslagquotum ingesteld op ${w.bytes(d.sizeTotal)}`,
  StoragePurged: (d) => `Opslag gewist (${count(d.destroyed, 'item', 'items')} vernietigd)`,
  QuotaReserved: (d, w) => `${w.bytes(d.size)} gereserveerd voor een upload`,
  QuotaReleased: () => 'Uploadreservering vrijgegeven',
  FileAdded: (d, w) =>
    `Bestand ${quoted(d.name)} ${d.copiedFrom ? 'gekopieerd' : 'geüpload'} (${w.bytes(d.size)}${d.encrypted || d.e2eeEnabled ? ', end-to-end versleuteld' : ''})`,
  FolderCreated: (d) => `Map ${quoted(d.name)} ${d.copiedFrom ? 'gekopieerd' : 'aangemaakt'}`,
  ItemRenamed: (d) => `Een item hernoemd naar ${quoted(d.name)}`,
  ItemMoved: (d) => (d.parentId ? 'Een item naar een andere map verplaatst' : 'Een item naar de hoofdmap verplaatst'),
  ItemDetailsChanged: (d) => `Gegevens van een item gewijzigd: ${t(d.details, 'geen')}`,
  ItemExpirySet: (d, w) => (d.expiresAt ? `Een item verloopt op ${w.when(d.expiresAt)}` : 'Vervaldatum van een item verwijderd'),
  ItemTrashed: (d, w) => `Een item naar de prullenbak verplaatst (${w.bytes(d.size)})`,
  ItemRestored: (d) => `${quoted(d.name)} teruggezet uit de prullenbak`,
  ItemDeleted: (d, w) =>
    `Een item definitief verwijderd (${w.bytes(d.size)}${Array.isArray(d.descendantIds) && d.descendantIds.length ? `, met ${count(d.descendantIds, 'item', 'items')} erin` : ''})`,
  // billing
  CheckoutStarted: (d, w) =>
    `Afrekenen gestart voor ${w.product(d.productId)} x${t(d.quantity, '1')} voor ${usd(d.amount)}${d.promo ? ' met een promotiecode' : ''}`,
  CheckoutLinkIssued: () => 'Betaallink uitgegeven',
  CheckoutDeclined: () => 'Betaling geweigerd',
  SubscriptionStarted: (d, w) => `Abonnement op ${w.product(d.productId)} gestart (${cycle(d.cycle)}), volgende betaling ${w.when(d.nextPaymentDate, 'geen')}`,
  SubscriptionRenewed: (d, w) => `Abonnement verlengd, volgende betaling ${w.when(d.nextPaymentDate)}`,
  SubscriptionCanceled: (d, w) => `Abonnement opgezegd${by(d.by)}, eindigt ${w.when(d.endDate)}`,
  PaymentRecorded: (d, w) =>
    `Betaling van ${usd(d.amount)} voor ${w.product(d.productId)}: ${t(d.status)}${d.promoCode ? ` (promotie ${t(d.promoCode)})` : ''}`,
  RenewalFailed: (d, w) => `Verlengingsbetaling mislukt; respijtperiode tot ${w.when(d.graceEndDate)}`,
  UnpaidStorageDeletionDue: () => 'Onbetaalde opslag moet worden verwijderd',
  PlanChangedByStaff: (d) => `Abonnement door medewerkers gewijzigd van ${t(d.previousPlan)} naar ${t(d.plan)}`,
  PromoCodeCreated: (d) => `Promotiecode ${t(d.code)} aangemaakt (${t(d.status)}${discount(d.discount)})`,
  PromoCodeUpdated: (d) => `Voorwaarden van de promotiecode bijgewerkt${discount(d.discount)}`,
  PromoCodeStatusChanged: (d) => `Promotiecode ${d.status === 'active' ? 'geactiveerd' : 'gedeactiveerd'}`,
  PromoCodeDeleted: () => 'Promotiecode verwijderd',
  PromoCodeUsed: (d) => `Promotiecode gebruikt door gebruiker ${short(d.userId)}`,
  PromoCodeUseReserved: (d) => `Gebruik van de promotiecode vastgehouden voor een betaling van gebruiker ${short(d.userId)}`,
  PromoCodeUseReleased: (d) => `Gebruik van de promotiecode vrijgegeven (${t(d.reason)})`,
  // wallet
  WalletAddressesCreated: () => 'Walletadressen aangemaakt',
  WalletSendNoted: (d) => `Notitie bij een verzonden transactie: ${t(d.note)}`,
  WalletDataForgotten: () => 'Walletnotities vergeten',
  ContactAdded: (d) => `Contact ${t(d.nickname)} toegevoegd`,
  ContactChanged: (d) => `Contact ${t(d.nickname)} gewijzigd`,
  ContactRemoved: () => 'Contact verwijderd',
  ContactsForgotten: () => 'Contacten vergeten',
  ChainBlockMined: (d) => `Blok ${t(d.height)} gemined met ${count(d.txids, 'transactie', 'transacties')}`,
  ChainCoinsMinted: (d) => `${axel(d.amount)} aangemaakt voor ${t(d.to)}`,
  ChainTransferAccepted: (d) => `${axel(d.amount)} verstuurd van ${t(d.from)} naar ${t(d.to)}`,
  // bookmarks and share visits
  BookmarkAdded: (d) => `Een gedeelde link als bladwijzer bewaard als ${quoted(d.description)}`,
  BookmarkRenamed: (d) => `Een bladwijzer hernoemd naar ${quoted(d.description)}`,
  BookmarkMoved: (d) => (d.bookmarkListId ? 'Een bladwijzer naar een lijst verplaatst' : 'Een bladwijzer uit zijn lijst gehaald'),
  BookmarkRemoved: () => 'Een bladwijzer verwijderd',
  BookmarkListCreated: (d) => `Bladwijzerlijst ${quoted(d.name)} aangemaakt`,
  BookmarkListRenamed: (d) => `Een bladwijzerlijst hernoemd naar ${quoted(d.name)}`,
  BookmarkListDeleted: () => 'Een bladwijzerlijst verwijderd',
  BookmarksForgotten: () => 'Bladwijzers vergeten',
  // vergrendeling in twee stappen
  LockCodeIssued: () => 'Verificatiecode per e-mail gestuurd voor een vergrendeling in twee stappen',
  LockCodeRejected: (d) =>
    `Onjuiste verificatiecode ingevoerd (${d.purpose === 'lock' ? 'om een item te vergrendelen' : d.purpose === 'unlock' ? 'om een item te ontgrendelen' : 'om een item te openen'})`,
  ItemTwoFactorLocked: (d) => `Een item vergrendeld met verificatie in twee stappen (${secondFactor(d.method)})`,
  ItemTwoFactorUnlocked: (d) => `Vergrendeling in twee stappen van een item opgeheven (${secondFactor(d.method)})`,
  LockAccessGranted: (d) => `Een vergrendeld item geopend met een verificatiecode (${secondFactor(d.method)})`,
  LockedItemOpened: (d) => `Een vergrendeld item gebruikt (${t(d.action)})`,
  // end-to-end versleuteling
  E2eeKeySet: () => 'End-to-end wachtwoordzin ingesteld',
  E2eePassphraseChanged: () => 'End-to-end wachtwoordzin gewijzigd (dezelfde sleutel)',
  E2eeKeyReset: () => 'End-to-end wachtwoordzin opnieuw ingesteld (nieuwe sleutel: eerdere bestanden kunnen niet meer worden geopend)',
  E2eeDefaultsChanged: (d) => `End-to-end versleuteling van nieuwe uploads ${d.encryptionDefault ? 'aangezet' : 'uitgezet'}`,
  E2eeKeysForgotten: () => 'End-to-end sleutels vergeten',
  ShareSignatureAdded: (d) => `Handtekening bewaard voor gedeeld bestand ${quoted(d.signedFileName)}`,
  ShareSignaturesForgotten: () => 'Handtekeningen van gedeelde bestanden vergeten',
  // teams
  TeamCreated: (d) => `Team geopend met het abonnement ${t(d.planKind)}`,
  TeamPlanChanged: (d) => `Team overgezet naar het abonnement ${t(d.planKind)}`,
  TeamMemberInvited: (d, w) => `Lid per e-mail uitgenodigd met een quotum van ${w.bytes(d.quotaBytes)}`,
  TeamInviteLinkCreated: () => 'Uitnodigingslink voor het team gemaakt',
  TeamInviteLinkRevoked: () => 'Uitnodigingslink voor het team ingetrokken',
  TeamMemberJoined: (d) => (d.via === 'link' ? 'Lid geworden via de uitnodigingslink van het team' : 'Lid geworden via een uitnodiging'),
  TeamMemberRemoved: () => 'Lid uit het team verwijderd',
  TeamMemberSuspended: () => 'Teamlid geschorst',
  TeamMemberUnsuspended: () => 'Schorsing van teamlid opgeheven',
  TeamMemberQuotaSet: (d, w) => `Quotum van lid ingesteld op ${w.bytes(d.quotaBytes)}`,
  TeamMemberRoleChanged: (d) => (d.role === 'co_admin_member' ? 'Lid tot co-beheerder gemaakt' : 'Co-beheerder weer gewoon lid'),
  TeamMemberForbiddenActionsSet: (d) =>
    Array.isArray(d.actions) && d.actions.length ? `Lid mag niet meer: ${d.actions.map((a) => FORBIDDEN[String(a)] ?? t(a)).join(', ')}` : 'Lid mag weer alles',
  TeamGroupCreated: (d) => `Groep ${quoted(d.name)} aangemaakt`,
  TeamGroupRenamed: (d) => `Groep hernoemd naar ${quoted(d.name)}`,
  TeamGroupDeleted: () => 'Groep verwijderd',
  TeamGroupMembersSet: (d) => `Groepsleden ingesteld (${count(d.memberIds, 'lid', 'leden')})`,
  TeamItemPermissionsSet: (d) => `Maprechten ingesteld: ${grantsIn(d.grants, LEVELS, 'niemand')}`,
  TeamClosed: (d) => (d.reason === 'downgrade' ? 'Team gesloten door een abonnementswijziging' : 'Team gesloten met het account van de eigenaar'),
  TeamForgotten: () => 'Team vergeten',
  TeamBrandingNameSet: (d) => (d.companyName ? `Teamnaam of slogan: ${quoted(d.companyName)}` : 'Teamnaam of slogan verwijderd'),
  TeamLogoSet: (d) => `Teamlogo ingesteld (${d.width}x${d.height})`,
  TeamLogoRemoved: () => 'Teamlogo verwijderd',
  TeamCustomUrlSet: (d) => `Eigen URL: ${quoted(d.subdomain)}`,
  TeamCustomUrlRemoved: (d) => `Eigen URL ${quoted(d.subdomain)} verwijderd`,
  TeamBrandingForgotten: () => 'Teamhuisstijl vergeten',
  CustomUrlReserved: () => 'Eigen URL door een team genomen',
  CustomUrlReleased: () => 'Eigen URL vrijgegeven',
  TeamInviteIssued: () => 'Teamuitnodiging verstuurd',
  TeamInviteClosed: (d) => (d.outcome === 'accepted' ? 'Teamuitnodiging aangenomen' : 'Teamuitnodiging ingetrokken'),
  TeamMembershipTaken: () => 'Lid van een team geworden',
  TeamMembershipReleased: () => 'Een team verlaten',
  ShareOpened: (d) => `${kind(d)} gedeelde link geopend${d.recipientEmail ? ` door ${t(d.recipientEmail)}` : ''}${d.firstOpen ? ' voor het eerst' : ''}`,
  ShareDownloaded: (d) => `${d.archive ? 'Archief' : 'Bestand'} gedownload van een gedeelde link${d.recipientEmail ? ` door ${t(d.recipientEmail)}` : ''}`,
  ShareAccessForgotten: () => 'Bezoekers van een gedeelde link vergeten',
  // shares
  ShareCreated: (d, w) =>
    `${kind(d)} gedeelde link ${quoted(d.title)} aangemaakt met ${count(d.items, 'item', 'items')} (${w.bytes(d.totalSize)})${
      Array.isArray(d.recipients) && d.recipients.length ? ` voor ${count(d.recipients, 'ontvanger', 'ontvangers')}` : ''
    }`,
  ShareEdited: (d) =>
    `Gedeelde link bewerkt: ${
      ['title', 'description', 'expiresAt', 'downloadable', 'requireLogin', 'passwordHash']
        .filter((k) => d[k] !== undefined)
        .map((k) => (k === 'passwordHash' ? 'wachtwoord' : k))
        .join(', ') || 'niets'
    }`,
  ShareRevoked: () => 'Gedeelde link ingetrokken',
  ShareDeleted: () => 'Gedeelde link verwijderd',
  ShareRecipientsResent: (d) => `E-mail van de gedeelde link opnieuw verstuurd naar ${count(d.recipients, 'ontvanger', 'ontvangers')}`,
  ShareRecipientBlocked: (d) => `Ontvanger ${t(d.email)} geblokkeerd voor de gedeelde link`,
  ShareRecipientUnblocked: (d) => `Ontvanger ${t(d.email)} gedeblokkeerd`,
  ShareCounted: (d) => `Gedeelde link meegeteld in het abonnement voor ${t(d.period)}`,
  ShareExpiryReminded: (d) => `Eigenaar herinnerd dat de gedeelde link over ${count(d.daysLeft, 'dag', 'dagen')} verloopt`,
  ShareForgotten: () => 'Gedeelde link vergeten met de gewiste eigenaar',
  CartOpened: () => 'Upload-en-deel-mand geopend',
  CartEntriesAdded: (d) => `${count(d.fileIds, 'bestand', 'bestanden')} aan de mand toegevoegd`,
  CartEntryRemoved: () => 'Een bestand uit de mand verwijderd',
  CartShareStarted: () => 'Delen van de mand gestart',
  CartShareAbandoned: () => 'Delen van de mand afgebroken',
  CartShared: () => 'Mand gedeeld',
  // secure fetch
  SecureFetchCreated: (d, w) => `Secure Fetch-link aangemaakt (${t(d.type)})${d.expiresAt ? `, verloopt ${w.when(d.expiresAt)}` : ''}`,
  SecureFetchRevoked: () => 'Secure Fetch-link ingetrokken',
  SecureFetchSubmitted: (d, w) => `${count(d.files ?? d.itemIds, 'bestand', 'bestanden')} ingediend via Secure Fetch (${w.bytes(d.totalSize)})`,
  SecureFetchItemOpened: () => 'Een via Secure Fetch ontvangen bestand is geopend',
  SecureFetchPaymentStarted: () => 'Betaling van het Secure Fetch-certificaat gestart',
  SecureFetchPaymentFailed: (d) => `Secure Fetch-betaling geweigerd: ${t(d.refusedWith)}`,
  SecureFetchPaid: (d) => `Secure Fetch betaald: ${axel(d.amount)}`,
  SecureFetchFilesCollected: (d) => `${count(d.itemIds, 'bestand', 'bestanden')} opgehaald uit Secure Fetch`,
  SecureFetchForgotten: () => 'Secure Fetch-link vergeten met de gewiste eigenaar',
  SecureFetchCounted: () => 'Secure Fetch-link meegeteld in het abonnement',
  // auto-pay programs
  AutoPayProgramCreated: (d) => `Programma voor automatisch betalen ${quoted(d.name)} aangemaakt`,
  AutoPayProgramEdited: (d) => `Programma voor automatisch betalen hernoemd of beschreven als ${quoted(d.name)}`,
  AutoPayPayeeAdded: (d) => `Begunstigde ${t(d.payeeName)} toegevoegd voor ${axel(d.amount)}`,
  AutoPayPayeeChanged: (d) => `Begunstigde ${t(d.payeeName)} gewijzigd naar ${axel(d.amount)}`,
  AutoPayPayeeRemoved: () => 'Begunstigde verwijderd',
  AutoPayPayeesImported: (d) => `${count(d.payees, 'begunstigde', 'begunstigden')} geïmporteerd${d.replaced ? ', de lijst vervangen' : ''}`,
  AutoPayProgramSubmitted: (d) => `Inzending ${t(d.submission)} ter goedkeuring verstuurd`,
  AutoPayProgramReturnedToDraft: (d) => `Inzending ${t(d.submission)} ingetrokken: het programma is gewijzigd`,
  AutoPayApprovalReminded: (d) => `Goedkeurders herinnerd aan inzending ${t(d.submission)}`,
  AutoPayProgramApproved: (d) => `Inzending ${t(d.submission)} goedgekeurd`,
  AutoPayProgramRejected: (d) =>
    d.cause === 'expired' ? `Inzending ${t(d.submission)} verlopen zonder goedkeuring` : `Inzending ${t(d.submission)} afgewezen`,
  AutoPayProgramLocked: () => 'Programma vergrendeld',
  AutoPayProgramUnlocked: () => 'Programma ontgrendeld',
  AutoPayProgramCancelled: (d) => `Inzending ${t(d.submission)} geannuleerd`,
  AutoPayPayoutStarted: (d) => `Uitbetaling van inzending ${t(d.submission)} gestart (poging ${t(d.attempt)})`,
  AutoPayPayeePaid: (d) => `Begunstigde betaald in transactie ${short(d.txid)}`,
  AutoPayPayeePayoutFailed: (d) => `Betaling aan een begunstigde mislukt: ${t(d.failure)}`,
  AutoPayPayoutFinished: (d) => `Uitbetaling klaar: ${t(d.paid, '0')} betaald, ${t(d.failed, '0')} mislukt`,
  AutoPayRetryRequested: (d) => `Nieuwe poging voor de mislukte betalingen aangevraagd (poging ${t(d.attempt)})`,
  AutoPayNameReserved: () => 'Programmanaam gereserveerd',
  AutoPayNameReleased: () => 'Programmanaam vrijgegeven',
  // storage upkeep
  BlobMaintenanceScheduled: (d) => `Onderhoud van de opslag gepland: controle elke ${minutes(d.scrubEveryMs)}, opruimen elke ${minutes(d.collectEveryMs)}`,
  // IPFS pins, connected apps, devices, backups, regions, e-sign
  IpfsPinRequested: () => 'IPFS-vastzetting aangevraagd',
  IpfsPinStarted: () => 'IPFS-vastzetting gestart',
  IpfsPinPinned: () => 'Vastgezet op IPFS',
  IpfsPinFailed: () => 'IPFS-vastzetting mislukt',
  IpfsPinRetried: () => 'IPFS-vastzetting opnieuw geprobeerd',
  IpfsPinRemoved: () => 'Losgemaakt van IPFS',
  IpfsGatewayChosen: () => 'Voorkeurs-IPFS-gateway gekozen',
  IpfsSettingsForgotten: () => 'IPFS-instellingen vergeten',
  AppConnected: () => 'App gekoppeld',
  AppDisconnected: () => 'App ontkoppeld',
  DropboxFileImported: () => 'Bestand geïmporteerd uit Dropbox',
  DropboxFileUploaded: () => 'Bestand geüpload naar Dropbox',
  ClioDocumentFiled: () => 'Document opgeslagen bij een Clio-dossier',
  IntegrationsForgotten: () => 'Gekoppelde apps vergeten',
  CloudLockerRegistered: () => 'CloudLocker heeft zijn sleutel geregistreerd',
  CloudLockerCheckedIn: () => 'CloudLocker heeft zich gemeld',
  CloudLockerSizeReported: () => 'CloudLocker heeft zijn grootte gemeld',
  CloudLockerClaimOpened: () => 'Koppeling van CloudLocker gestart',
  CloudLockerBound: () => 'CloudLocker aan een account gekoppeld',
  CloudLockerUnbound: () => 'CloudLocker ontkoppeld',
  CloudLockerDeleted: () => 'CloudLocker verwijderd',
  BackupDeviceRegistered: () => 'Back-upapparaat toegevoegd',
  BackupDeviceSeen: () => 'Back-upapparaat gezien',
  BackupPathsChanged: () => 'Back-uppaden gewijzigd',
  BackupStopped: () => 'Back-up gestopt',
  BackupResumed: () => 'Back-up hervat',
  BackupsForgotten: () => 'Back-upapparaten vergeten',
  RegionChosen: () => 'Opslagregio gekozen voor nieuwe uploads',
  EsignPackageCreated: () => 'Ondertekenpakket aangemaakt',
  EsignEntryAdded: () => 'Document toegevoegd aan een ondertekenpakket',
  EsignEntryRemoved: () => 'Document verwijderd uit een ondertekenpakket',
  EsignSignerAdded: () => 'Ondertekenaar toegevoegd',
  EsignSignerRemoved: () => 'Ondertekenaar verwijderd',
  EsignPinPlaced: () => 'Ondertekenveld geplaatst',
  EsignPinRemoved: () => 'Ondertekenveld verwijderd',
  EsignPackageSent: () => 'Ondertekenpakket verstuurd ter ondertekening',
  EsignSignerSigned: () => 'Ondertekenaar heeft getekend',
  EsignSignerFinished: () => 'Ondertekenaar is klaar',
  EsignPackageCompleted: () => 'Ondertekenpakket voltooid en verzegeld',
  EsignPackageArchived: () => 'Ondertekenpakket gearchiveerd',
  EsignPackageUnarchived: () => 'Ondertekenpakket uit het archief gehaald',
  EsignPackageDeleted: () => 'Ondertekenpakket verwijderd',
  EsignPackageForgotten: () => 'Ondertekenpakket vergeten',
};
