import { axel, count, grantsIn, deviceIn, discountIn, quoted, type Sentence, short, text, usd, type Writers } from './describe-event.words';

/** The activity log's sentences in Mexican Spanish (one per event type, like the English ones). */
const t = (value: unknown, fallback = 'desconocido'): string => text(value, fallback);
const cycle = (value: unknown): string => (value === 'month' ? 'mensual' : value === 'year' ? 'anual' : t(value));
const until = (value: unknown, w: Writers): string => (value ? ` hasta ${w.when(value)}` : '');
const CANCELLERS: Readonly<Record<string, string>> = {
  user: 'por el usuario',
  staff: 'por el personal',
  plan_change: 'por un cambio de plan',
  system: 'por el sistema',
};
const by = (value: unknown): string => (value ? ` ${CANCELLERS[String(value)] ?? `por ${t(value)}`}` : '');
const device = deviceIn('desde', 'en');
const secondFactor = (method: unknown): string => (method === 'totp' ? 'app de autenticación' : method === 'email' ? 'código por correo' : t(method));
const discount = discountIn((amount) => `${amount} de descuento`);
const kind = (d: { kind?: unknown }): string => (d.kind === 'private' ? 'privado' : 'público');

const FORBIDDEN: Readonly<Record<string, string>> = { dropbox: 'usar Dropbox', createRootFolder: 'crear carpetas de primer nivel' };
const LEVELS: Readonly<Record<string, string>> = { none: 'sin acceso', view: 'ver', download: 'descargar', edit: 'editar', full: 'completo' };
const minutes = (ms: unknown): string => count(Math.round(Number(ms) / 60_000), 'minuto');
export const ES: Readonly<Record<string, Sentence>> = {
  // accounts
  UserRegistered: (d) =>
    d.createdByStaffId
      ? `Cuenta ${t(d.email)} creada por el personal como ${t(d.role)}`
      : `Registro como ${t(d.email)}${d.registrationApp ? ` en ${t(d.registrationApp)}` : ''}`,
  EmailConfirmationRequested: (d) => `Correo de confirmación enviado a ${t(d.email)}`,
  EmailConfirmed: (d) => `Dirección de correo ${t(d.email)} confirmada`,
  SignInSucceeded: (d) => `Inició sesión${device(d.userAgent)}`,
  SignInFailed: (d) =>
    `Inicio de sesión fallido: ${d.reason === 'two_factor' ? 'código de verificación' : 'contraseña'} incorrecto(a) (intento ${t(d.failedAttempts, '1')})${device(d.userAgent)}`,
  UserLocked: (d, w) => `Inicio de sesión bloqueado${until(d.until, w)} tras ${count(d.failedAttempts, 'intento fallido', 'intentos fallidos')}`,
  UserUnlocked: () => 'Inicio de sesión desbloqueado por un restablecimiento de contraseña',
  TwoFactorChallengeIssued: (d) => `Se pidió un código de verificación (${secondFactor(d.method)})`,
  TwoFactorCodeIssued: (d) => `Código de verificación enviado por correo${d.purpose ? ` (${t(d.purpose)})` : ''}`,
  TotpEnrolmentStarted: () => 'Configuración de la app de autenticación iniciada',
  TwoFactorEnabled: (d) => `Verificación en dos pasos activada (${secondFactor(d.method)})`,
  TwoFactorDisabled: (d) =>
    d.via === 'reset' ? 'Verificación en dos pasos desactivada con un enlace de restablecimiento' : 'Verificación en dos pasos desactivada',
  TwoFactorResetRequested: () => 'Enlace para restablecer la verificación en dos pasos enviado',
  PasswordResetRequested: () => 'Enlace para restablecer la contraseña enviado',
  PasswordChanged: (d) => (d.via === 'reset' ? 'Contraseña cambiada con un enlace de restablecimiento' : 'Contraseña cambiada'),
  EmailChangeRequested: (d) => `Cambio de correo a ${t(d.newEmail)} solicitado`,
  EmailChanged: (d) => `Correo cambiado de ${t(d.oldEmail)} a ${t(d.newEmail)}`,
  ProfileUpdated: (d) => `Perfil actualizado: ${t(d.changes, 'ningún campo')}`,
  AccountSettingsChanged: (d) => {
    const changed = ['username', 'sessionTimeout', 'locale'].filter((k) => d[k] !== undefined);
    if (d.username !== undefined)
      return `Ajustes de la cuenta cambiados: nombre de usuario ${d.username === null ? 'eliminado' : `establecido como ${t(d.username)}`}`;
    return `Ajustes de la cuenta cambiados: ${changed.join(', ') || 'nada'}`;
  },
  AvatarChanged: (d, w) => (d.avatarId ? `Foto de perfil cambiada (${t(d.mime)}, ${w.bytes(d.size)})` : 'Foto de perfil eliminada'),
  TermsAccepted: () => 'Términos aceptados',
  RoleChanged: (d) => `Rol cambiado de ${t(d.from)} a ${t(d.to)}`,
  UserSuspended: (d) => (d.reason ? `Suspendido (${t(d.reason)})` : 'Suspendido'),
  UserUnsuspended: () => 'Suspensión levantada',
  UserBlocked: (d, w) => `Bloqueado${until(d.until, w)}`,
  UserUnblocked: () => 'Bloqueo levantado',
  DbsAccessActivated: () => 'Acceso a bases de datos activado',
  DbsAccessCancelled: () => 'Acceso a bases de datos cancelado',
  AccountDeleted: (d) =>
    d.by === 'staff'
      ? `Cuenta ${t(d.email)} eliminada por el personal`
      : d.by === 'non_payment'
        ? `Cuenta ${t(d.email)} eliminada por falta de pago`
        : `Cuenta ${t(d.email)} eliminada por su titular`,
  AccountPurged: () => 'Cuenta purgada: sus datos personales se olvidaron',
  AccountDeactivatedForNonPayment: () => 'Cuenta desactivada por falta de pago',
  EmailReserved: (d) => `Dirección de correo reservada para el usuario ${short(d.userId)}`,
  EmailReleased: (d) => `Dirección de correo liberada por el usuario ${short(d.userId)}`,
  UsernameReserved: (d) => `Nombre de usuario reservado para el usuario ${short(d.userId)}`,
  UsernameReleased: (d) => `Nombre de usuario liberado por el usuario ${short(d.userId)}`,
  // mail and notifications
  MailRequested: (d) => `Correo "${t(d.template)}" en cola para ${t(d.to)}`,
  MailDelivered: (d) => `Correo entregado${d.transport ? ` por ${t(d.transport)}` : ''}`,
  MailFailed: (d) => `Falló la entrega del correo${d.final ? ' definitivamente' : `, intento ${t(d.attempt)}`}: ${t(d.error)}`,
  NotificationsSeen: (d) => `${count(d.ids, 'notificación marcada como vista', 'notificaciones marcadas como vistas')}`,
  NotificationsDeleted: (d) => `${count(d.ids, 'notificación eliminada', 'notificaciones eliminadas')}`,
  // storage
  StorageOpened: (d, w) => `Almacenamiento ${t(d.type)} de ${w.bytes(d.sizeTotal)} abierto`,
  StorageQuotaChanged: (d, w) => `Cuota de almacenamiento fijada en ${w.bytes(d.sizeTotal)}`,
  StoragePurged: (d) => `Almacenamiento purgado (${count(d.destroyed, 'elemento destruido', 'elementos destruidos')})`,
  QuotaReserved: (d, w) => `${w.bytes(d.size)} reservados para una subida`,
  QuotaReleased: () => 'Reserva de subida liberada',
  FileAdded: (d, w) =>
    `Archivo ${quoted(d.name)} ${d.copiedFrom ? 'copiado' : 'subido'} (${w.bytes(d.size)}${d.encrypted || d.e2eeEnabled ? ', cifrado de extremo a extremo' : ''})`,
  FolderCreated: (d) => `Carpeta ${quoted(d.name)} ${d.copiedFrom ? 'copiada' : 'creada'}`,
  ItemRenamed: (d) => `Elemento renombrado a ${quoted(d.name)}`,
  ItemMoved: (d) => (d.parentId ? 'Elemento movido a otra carpeta' : 'Elemento movido a la carpeta principal'),
  ItemDetailsChanged: (d) => `Detalles de un elemento cambiados: ${t(d.details, 'ninguno')}`,
  ItemExpirySet: (d, w) => (d.expiresAt ? `Elemento configurado para caducar el ${w.when(d.expiresAt)}` : 'Caducidad de un elemento eliminada'),
  ItemTrashed: (d, w) => `Elemento movido a la papelera (${w.bytes(d.size)})`,
  ItemRestored: (d) => `${quoted(d.name)} restaurado de la papelera`,
  ItemDeleted: (d, w) =>
    `Elemento eliminado definitivamente (${w.bytes(d.size)}${Array.isArray(d.descendantIds) && d.descendantIds.length ? `, con ${count(d.descendantIds, 'elemento', 'elementos')} dentro` : ''})`,
  // billing
  CheckoutStarted: (d, w) =>
    `Compra iniciada de ${w.product(d.productId)} x${t(d.quantity, '1')} por ${usd(d.amount)}${d.promo ? ' con un código promocional' : ''}`,
  CheckoutLinkIssued: () => 'Enlace de pago emitido',
  CheckoutDeclined: () => 'Pago rechazado',
  SubscriptionStarted: (d, w) => `Suscripción a ${w.product(d.productId)} iniciada (${cycle(d.cycle)}), próximo pago ${w.when(d.nextPaymentDate, 'ninguno')}`,
  SubscriptionRenewed: (d, w) => `Suscripción renovada, próximo pago ${w.when(d.nextPaymentDate)}`,
  SubscriptionCanceled: (d, w) => `Suscripción cancelada${by(d.by)}, termina el ${w.when(d.endDate)}`,
  PaymentRecorded: (d, w) => `Pago de ${usd(d.amount)} por ${w.product(d.productId)}: ${t(d.status)}${d.promoCode ? ` (promoción ${t(d.promoCode)})` : ''}`,
  RenewalFailed: (d, w) => `Falló el pago de la renovación; periodo de gracia hasta ${w.when(d.graceEndDate)}`,
  UnpaidStorageDeletionDue: () => 'El almacenamiento no pagado debe eliminarse',
  PlanChangedByStaff: (d) => `Plan cambiado por el personal de ${t(d.previousPlan)} a ${t(d.plan)}`,
  PromoCodeCreated: (d) => `Código promocional ${t(d.code)} creado (${t(d.status)}${discount(d.discount)})`,
  PromoCodeUpdated: (d) => `Condiciones del código promocional actualizadas${discount(d.discount)}`,
  PromoCodeStatusChanged: (d) => `Código promocional ${d.status === 'active' ? 'activado' : 'desactivado'}`,
  PromoCodeDeleted: () => 'Código promocional eliminado',
  PromoCodeUsed: (d) => `Código promocional usado por el usuario ${short(d.userId)}`,
  PromoCodeUseReserved: (d) => `Uso del código promocional apartado para una compra del usuario ${short(d.userId)}`,
  PromoCodeUseReleased: (d) => `Uso del código promocional liberado (${t(d.reason)})`,
  // wallet
  WalletAddressesCreated: () => 'Direcciones de la billetera creadas',
  WalletSendNoted: (d) => `Nota en una transacción enviada: ${t(d.note)}`,
  WalletDataForgotten: () => 'Notas de la billetera olvidadas',
  ContactAdded: (d) => `Contacto ${t(d.nickname)} agregado`,
  ContactChanged: (d) => `Contacto ${t(d.nickname)} cambiado`,
  ContactRemoved: () => 'Contacto eliminado',
  ContactsForgotten: () => 'Contactos olvidados',
  ChainBlockMined: (d) => `Bloque ${t(d.height)} minado con ${count(d.txids, 'transacción', 'transacciones')}`,
  ChainCoinsMinted: (d) => `${axel(d.amount)} emitidos a ${t(d.to)}`,
  ChainTransferAccepted: (d) => `${axel(d.amount)} enviados de ${t(d.from)} a ${t(d.to)}`,
  // bookmarks and share visits
  BookmarkAdded: (d) => `Recurso compartido guardado en marcadores como ${quoted(d.description)}`,
  BookmarkRenamed: (d) => `Marcador renombrado a ${quoted(d.description)}`,
  BookmarkMoved: (d) => (d.bookmarkListId ? 'Marcador movido a una lista' : 'Marcador sacado de su lista'),
  BookmarkRemoved: () => 'Marcador eliminado',
  BookmarkListCreated: (d) => `Lista de marcadores ${quoted(d.name)} creada`,
  BookmarkListRenamed: (d) => `Lista de marcadores renombrada a ${quoted(d.name)}`,
  BookmarkListDeleted: () => 'Lista de marcadores eliminada',
  BookmarksForgotten: () => 'Marcadores olvidados',
  // bloqueo en dos pasos
  LockCodeIssued: () => 'Código de verificación enviado por correo para un bloqueo en dos pasos',
  LockCodeRejected: (d) =>
    `Código de verificación incorrecto (${d.purpose === 'lock' ? 'al bloquear' : d.purpose === 'unlock' ? 'al desbloquear' : 'al abrir'} un elemento)`,
  ItemTwoFactorLocked: (d) => `Elemento bloqueado con verificación en dos pasos (${secondFactor(d.method)})`,
  ItemTwoFactorUnlocked: (d) => `Bloqueo en dos pasos de un elemento quitado (${secondFactor(d.method)})`,
  LockAccessGranted: (d) => `Elemento bloqueado abierto con un código de verificación (${secondFactor(d.method)})`,
  LockedItemOpened: (d) => `Elemento bloqueado usado (${t(d.action)})`,
  // cifrado de extremo a extremo
  E2eeKeySet: () => 'Frase de contraseña de extremo a extremo configurada',
  E2eePassphraseChanged: () => 'Frase de contraseña de extremo a extremo cambiada (misma clave)',
  E2eeKeyReset: () => 'Frase de contraseña de extremo a extremo restablecida (clave nueva: los archivos anteriores ya no se pueden abrir)',
  E2eeDefaultsChanged: (d) => `Cifrado de extremo a extremo de nuevas subidas ${d.encryptionDefault ? 'activado' : 'desactivado'}`,
  E2eeKeysForgotten: () => 'Claves de extremo a extremo olvidadas',
  ShareSignatureAdded: (d) => `Firma guardada para el archivo compartido ${quoted(d.signedFileName)}`,
  ShareSignaturesForgotten: () => 'Firmas de archivos compartidos olvidadas',
  // equipos
  TeamCreated: (d) => `Equipo abierto con el plan ${t(d.planKind)}`,
  TeamPlanChanged: (d) => `Equipo pasado al plan ${t(d.planKind)}`,
  TeamMemberInvited: (d, w) => `Miembro invitado por correo con una cuota de ${w.bytes(d.quotaBytes)}`,
  TeamInviteLinkCreated: () => 'Enlace de invitación al equipo creado',
  TeamInviteLinkRevoked: () => 'Enlace de invitación al equipo revocado',
  TeamMemberJoined: (d) => (d.via === 'link' ? 'Se unió al equipo con su enlace de invitación' : 'Se unió al equipo con una invitación'),
  TeamMemberRemoved: () => 'Miembro eliminado del equipo',
  TeamMemberSuspended: () => 'Miembro del equipo suspendido',
  TeamMemberUnsuspended: () => 'Miembro del equipo reactivado',
  TeamMemberQuotaSet: (d, w) => `Cuota del miembro fijada en ${w.bytes(d.quotaBytes)}`,
  TeamMemberRoleChanged: (d) => (d.role === 'co_admin_member' ? 'Miembro nombrado coadministrador' : 'Coadministrador vuelto a miembro'),
  TeamMemberForbiddenActionsSet: (d) =>
    Array.isArray(d.actions) && d.actions.length
      ? `El miembro ya no puede: ${d.actions.map((a) => FORBIDDEN[String(a)] ?? t(a)).join(', ')}`
      : 'El miembro vuelve a poder hacerlo todo',
  TeamGroupCreated: (d) => `Grupo ${quoted(d.name)} creado`,
  TeamGroupRenamed: (d) => `Grupo renombrado a ${quoted(d.name)}`,
  TeamGroupDeleted: () => 'Grupo eliminado',
  TeamGroupMembersSet: (d) => `Miembros del grupo fijados (${count(d.memberIds, 'miembro')})`,
  TeamItemPermissionsSet: (d) => `Permisos de carpeta fijados: ${grantsIn(d.grants, LEVELS, 'nadie')}`,
  TeamClosed: (d) => (d.reason === 'downgrade' ? 'Equipo cerrado por un cambio de plan' : 'Equipo cerrado con la cuenta de su propietario'),
  TeamForgotten: () => 'Equipo olvidado',
  TeamBrandingNameSet: (d) => (d.companyName ? `Nombre o eslogan del equipo: ${quoted(d.companyName)}` : 'Nombre o eslogan del equipo quitado'),
  TeamLogoSet: (d) => `Logotipo del equipo establecido (${d.width}x${d.height})`,
  TeamLogoRemoved: () => 'Logotipo del equipo quitado',
  TeamCustomUrlSet: (d) => `URL personalizada: ${quoted(d.subdomain)}`,
  TeamCustomUrlRemoved: (d) => `URL personalizada ${quoted(d.subdomain)} quitada`,
  TeamBrandingForgotten: () => 'Marca del equipo olvidada',
  CustomUrlReserved: () => 'URL personalizada tomada por un equipo',
  CustomUrlReleased: () => 'URL personalizada liberada',
  TeamInviteIssued: () => 'Invitación al equipo enviada',
  TeamInviteClosed: (d) => (d.outcome === 'accepted' ? 'Invitación al equipo aceptada' : 'Invitación al equipo retirada'),
  TeamMembershipTaken: () => 'Pasó a ser miembro de un equipo',
  TeamMembershipReleased: () => 'Dejó un equipo',
  ShareOpened: (d) => `Recurso compartido ${kind(d)} abierto${d.recipientEmail ? ` por ${t(d.recipientEmail)}` : ''}${d.firstOpen ? ' por primera vez' : ''}`,
  ShareDownloaded: (d) =>
    `${d.archive ? 'Archivo comprimido' : 'Archivo'} descargado de un recurso compartido${d.recipientEmail ? ` por ${t(d.recipientEmail)}` : ''}`,
  ShareAccessForgotten: () => 'Visitantes de un recurso compartido olvidados',
  // shares
  ShareCreated: (d, w) =>
    `Recurso compartido ${kind(d)} ${quoted(d.title)} creado con ${count(d.items, 'elemento', 'elementos')} (${w.bytes(d.totalSize)})${
      Array.isArray(d.recipients) && d.recipients.length ? ` para ${count(d.recipients, 'destinatario', 'destinatarios')}` : ''
    }`,
  ShareEdited: (d) =>
    `Recurso compartido editado: ${
      ['title', 'description', 'expiresAt', 'downloadable', 'requireLogin', 'passwordHash']
        .filter((k) => d[k] !== undefined)
        .map((k) => (k === 'passwordHash' ? 'contraseña' : k))
        .join(', ') || 'nada'
    }`,
  ShareRevoked: () => 'Recurso compartido revocado',
  ShareDeleted: () => 'Recurso compartido eliminado',
  ShareRecipientsResent: (d) => `Correo del recurso compartido reenviado a ${count(d.recipients, 'destinatario', 'destinatarios')}`,
  ShareRecipientBlocked: (d) => `Destinatario ${t(d.email)} bloqueado en el recurso compartido`,
  ShareRecipientUnblocked: (d) => `Destinatario ${t(d.email)} desbloqueado`,
  ShareCounted: (d) => `Recurso compartido contado en el plan para ${t(d.period)}`,
  ShareExpiryReminded: (d) => `Se recordó al titular que el recurso compartido caduca en ${count(d.daysLeft, 'día', 'días')}`,
  ShareForgotten: () => 'Recurso compartido olvidado junto con su titular purgado',
  CartOpened: () => 'Carrito de subir y compartir abierto',
  CartEntriesAdded: (d) => `${count(d.fileIds, 'archivo agregado', 'archivos agregados')} al carrito`,
  CartEntryRemoved: () => 'Un archivo quitado del carrito',
  CartShareStarted: () => 'Se empezó a compartir el carrito',
  CartShareAbandoned: () => 'Se abandonó compartir el carrito',
  CartShared: () => 'Carrito compartido',
  // secure fetch
  SecureFetchCreated: (d, w) => `Enlace Secure Fetch creado (${t(d.type)})${d.expiresAt ? `, caduca el ${w.when(d.expiresAt)}` : ''}`,
  SecureFetchRevoked: () => 'Enlace Secure Fetch revocado',
  SecureFetchSubmitted: (d, w) => `${count(d.files ?? d.itemIds, 'archivo enviado', 'archivos enviados')} por Secure Fetch (${w.bytes(d.totalSize)})`,
  SecureFetchItemOpened: () => 'Se abrió un archivo recibido por Secure Fetch',
  SecureFetchPaymentStarted: () => 'Pago del certificado Secure Fetch iniciado',
  SecureFetchPaymentFailed: (d) => `Pago de Secure Fetch rechazado: ${t(d.refusedWith)}`,
  SecureFetchPaid: (d) => `Secure Fetch pagado: ${axel(d.amount)}`,
  SecureFetchFilesCollected: (d) => `${count(d.itemIds, 'archivo recogido', 'archivos recogidos')} de Secure Fetch`,
  SecureFetchForgotten: () => 'Enlace Secure Fetch olvidado junto con su titular purgado',
  SecureFetchCounted: () => 'Enlace Secure Fetch contado en el plan',
  // auto-pay programs
  AutoPayProgramCreated: (d) => `Programa de pago automático ${quoted(d.name)} creado`,
  AutoPayProgramEdited: (d) => `Programa de pago automático renombrado o descrito como ${quoted(d.name)}`,
  AutoPayPayeeAdded: (d) => `Beneficiario ${t(d.payeeName)} agregado por ${axel(d.amount)}`,
  AutoPayPayeeChanged: (d) => `Beneficiario ${t(d.payeeName)} cambiado a ${axel(d.amount)}`,
  AutoPayPayeeRemoved: () => 'Beneficiario eliminado',
  AutoPayPayeesImported: (d) => `${count(d.payees, 'beneficiario importado', 'beneficiarios importados')}${d.replaced ? ', reemplazando la lista' : ''}`,
  AutoPayProgramSubmitted: (d) => `Envío ${t(d.submission)} mandado a aprobación`,
  AutoPayProgramReturnedToDraft: (d) => `Envío ${t(d.submission)} retirado: el programa cambió`,
  AutoPayApprovalReminded: (d) => `Se recordó a los aprobadores el envío ${t(d.submission)}`,
  AutoPayProgramApproved: (d) => `Envío ${t(d.submission)} aprobado`,
  AutoPayProgramRejected: (d) => (d.cause === 'expired' ? `Envío ${t(d.submission)} caducó sin aprobarse` : `Envío ${t(d.submission)} rechazado`),
  AutoPayProgramLocked: () => 'Programa bloqueado',
  AutoPayProgramUnlocked: () => 'Programa desbloqueado',
  AutoPayProgramCancelled: (d) => `Envío ${t(d.submission)} cancelado`,
  AutoPayPayoutStarted: (d) => `Pago del envío ${t(d.submission)} iniciado (intento ${t(d.attempt)})`,
  AutoPayPayeePaid: (d) => `Beneficiario pagado en la transacción ${short(d.txid)}`,
  AutoPayPayeePayoutFailed: (d) => `Falló el pago a un beneficiario: ${t(d.failure)}`,
  AutoPayPayoutFinished: (d) => `Pago terminado: ${t(d.paid, '0')} pagados, ${t(d.failed, '0')} fallidos`,
  AutoPayRetryRequested: (d) => `Reintento de los pagos fallidos solicitado (intento ${t(d.attempt)})`,
  AutoPayNameReserved: () => 'Nombre del programa reservado',
  AutoPayNameReleased: () => 'Nombre del programa liberado',
  // storage upkeep
  BlobMaintenanceScheduled: (d) =>
    `Mantenimiento del almacenamiento programado: revisión cada ${minutes(d.scrubEveryMs)}, recolección cada ${minutes(d.collectEveryMs)}`,
  // IPFS pins, connected apps, devices, backups, regions, e-sign
  IpfsPinRequested: () => 'Fijado en IPFS solicitado',
  IpfsPinStarted: () => 'Fijado en IPFS iniciado',
  IpfsPinPinned: () => 'Fijado en IPFS',
  IpfsPinFailed: () => 'El fijado en IPFS falló',
  IpfsPinRetried: () => 'Fijado en IPFS reintentado',
  IpfsPinRemoved: () => 'Quitado de IPFS',
  IpfsGatewayChosen: () => 'Puerta de enlace IPFS preferida elegida',
  IpfsSettingsForgotten: () => 'Ajustes de IPFS olvidados',
  AppConnected: () => 'Aplicación conectada',
  AppDisconnected: () => 'Aplicación desconectada',
  DropboxFileImported: () => 'Archivo importado de Dropbox',
  DropboxFileUploaded: () => 'Archivo subido a Dropbox',
  ClioDocumentFiled: () => 'Documento archivado en un asunto de Clio',
  IntegrationsForgotten: () => 'Aplicaciones conectadas olvidadas',
  CloudLockerRegistered: () => 'CloudLocker registró su clave',
  CloudLockerCheckedIn: () => 'CloudLocker se reportó',
  CloudLockerSizeReported: () => 'CloudLocker informó su tamaño',
  CloudLockerClaimOpened: () => 'Reclamo de CloudLocker iniciado',
  CloudLockerBound: () => 'CloudLocker vinculado a una cuenta',
  CloudLockerUnbound: () => 'CloudLocker desvinculado',
  CloudLockerDeleted: () => 'CloudLocker eliminado',
  BackupDeviceRegistered: () => 'Dispositivo de copia de seguridad agregado',
  BackupDeviceSeen: () => 'Dispositivo de copia de seguridad visto',
  BackupPathsChanged: () => 'Rutas de copia de seguridad cambiadas',
  BackupStopped: () => 'Copia de seguridad detenida',
  BackupResumed: () => 'Copia de seguridad reanudada',
  BackupsForgotten: () => 'Dispositivos de copia de seguridad olvidados',
  RegionChosen: () => 'Región de almacenamiento elegida para nuevas subidas',
  EsignPackageCreated: () => 'Paquete de firma creado',
  EsignEntryAdded: () => 'Documento agregado a un paquete de firma',
  EsignEntryRemoved: () => 'Documento quitado de un paquete de firma',
  EsignSignerAdded: () => 'Firmante agregado',
  EsignSignerRemoved: () => 'Firmante quitado',
  EsignPinPlaced: () => 'Campo de firma colocado',
  EsignPinRemoved: () => 'Campo de firma quitado',
  EsignPackageSent: () => 'Paquete de firma enviado para firmar',
  EsignSignerSigned: () => 'El firmante firmó',
  EsignSignerFinished: () => 'El firmante terminó',
  EsignPackageCompleted: () => 'Paquete de firma completado y sellado',
  EsignPackageArchived: () => 'Paquete de firma archivado',
  EsignPackageUnarchived: () => 'Paquete de firma sacado del archivo',
  EsignPackageDeleted: () => 'Paquete de firma eliminado',
  EsignPackageForgotten: () => 'Paquete de firma olvidado',
};
