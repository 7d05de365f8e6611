import { axel, count, grantsIn, deviceIn, discountIn, quoted, type Sentence, short, text, usd, type Writers } from './describe-event.words';

/** The activity log's sentences in Brazilian Portuguese (one per event type, like the English ones). */
const t = (value: unknown, fallback = 'desconhecido'): string => text(value, fallback);
const cycle = (value: unknown): string => (value === 'month' ? 'mensal' : value === 'year' ? 'anual' : t(value));
const until = (value: unknown, w: Writers): string => (value ? ` até ${w.when(value)}` : '');
const CANCELLERS: Readonly<Record<string, string>> = {
  user: 'pelo usuário',
  staff: 'pela equipe',
  plan_change: 'por uma troca de plano',
  system: 'pelo sistema',
};
const by = (value: unknown): string => (value ? ` ${CANCELLERS[String(value)] ?? `por ${t(value)}`}` : '');
const device = deviceIn('pelo', 'no');
const secondFactor = (method: unknown): string => (method === 'totp' ? 'app autenticador' : method === 'email' ? 'código por e-mail' : t(method));
const discount = discountIn((amount) => `${amount} de desconto`);
const kind = (d: { kind?: unknown }): string => (d.kind === 'private' ? 'privado' : 'público');

const FORBIDDEN: Readonly<Record<string, string>> = { dropbox: 'usar o Dropbox', createRootFolder: 'criar pastas de nível superior' };
const LEVELS: Readonly<Record<string, string>> = { none: 'sem acesso', view: 'ver', download: 'baixar', edit: 'editar', full: 'total' };
const minutes = (ms: unknown): string => count(Math.round(Number(ms) / 60_000), 'minuto');
export const PT: Readonly<Record<string, Sentence>> = {
  // accounts
  UserRegistered: (d) =>
    d.createdByStaffId
      ? `Conta ${t(d.email)} criada pela equipe como ${t(d.role)}`
      : `Cadastro feito como ${t(d.email)}${d.registrationApp ? ` em ${t(d.registrationApp)}` : ''}`,
  EmailConfirmationRequested: (d) => `E-mail de confirmação enviado para ${t(d.email)}`,
  EmailConfirmed: (d) => `Endereço de e-mail ${t(d.email)} confirmado`,
  SignInSucceeded: (d) => `Entrou${device(d.userAgent)}`,
  SignInFailed: (d) =>
    `Falha ao entrar: ${d.reason === 'two_factor' ? 'código de verificação' : 'senha'} incorreto(a) (tentativa ${t(d.failedAttempts, '1')})${device(d.userAgent)}`,
  UserLocked: (d, w) => `Acesso bloqueado${until(d.until, w)} após ${count(d.failedAttempts, 'tentativa falha', 'tentativas falhas')}`,
  UserUnlocked: () => 'Acesso desbloqueado por uma redefinição de senha',
  TwoFactorChallengeIssued: (d) => `Código de verificação solicitado (${secondFactor(d.method)})`,
  TwoFactorCodeIssued: (d) => `Código de verificação enviado por e-mail${d.purpose ? ` (${t(d.purpose)})` : ''}`,
  TotpEnrolmentStarted: () => 'Configuração do app autenticador iniciada',
  TwoFactorEnabled: (d) => `Verificação em duas etapas ativada (${secondFactor(d.method)})`,
  TwoFactorDisabled: (d) => (d.via === 'reset' ? 'Verificação em duas etapas desativada por um link de redefinição' : 'Verificação em duas etapas desativada'),
  TwoFactorResetRequested: () => 'Link de redefinição da verificação em duas etapas enviado',
  PasswordResetRequested: () => 'Link de redefinição de senha enviado',
  PasswordChanged: (d) => (d.via === 'reset' ? 'Senha alterada por um link de redefinição' : 'Senha alterada'),
  EmailChangeRequested: (d) => `Alteração de e-mail para ${t(d.newEmail)} solicitada`,
  EmailChanged: (d) => `E-mail alterado de ${t(d.oldEmail)} para ${t(d.newEmail)}`,
  ProfileUpdated: (d) => `Perfil atualizado: ${t(d.changes, 'nenhum campo')}`,
  AccountSettingsChanged: (d) => {
    const changed = ['username', 'sessionTimeout', 'locale'].filter((k) => d[k] !== undefined);
    if (d.username !== undefined)
      return `Configurações da conta alteradas: nome de usuário ${d.username === null ? 'removido' : `definido como ${t(d.username)}`}`;
    return `Configurações da conta alteradas: ${changed.join(', ') || 'nada'}`;
  },
  AvatarChanged: (d, w) => (d.avatarId ? `Foto do perfil alterada (${t(d.mime)}, ${w.bytes(d.size)})` : 'Foto do perfil removida'),
  TermsAccepted: () => 'Termos aceitos',
  RoleChanged: (d) => `Função alterada de ${t(d.from)} para ${t(d.to)}`,
  UserSuspended: (d) => (d.reason ? `Suspenso (${t(d.reason)})` : 'Suspenso'),
  UserUnsuspended: () => 'Suspensão retirada',
  UserBlocked: (d, w) => `Bloqueado${until(d.until, w)}`,
  UserUnblocked: () => 'Bloqueio retirado',
  DbsAccessActivated: () => 'Acesso a bancos de dados ativado',
  DbsAccessCancelled: () => 'Acesso a bancos de dados cancelado',
  AccountDeleted: (d) =>
    d.by === 'staff'
      ? `Conta ${t(d.email)} excluída pela equipe`
      : d.by === 'non_payment'
        ? `Conta ${t(d.email)} excluída por falta de pagamento`
        : `Conta ${t(d.email)} excluída pelo titular`,
  AccountPurged: () => 'Conta apagada: seus dados pessoais foram esquecidos',
  AccountDeactivatedForNonPayment: () => 'Conta desativada por falta de pagamento',
  EmailReserved: (d) => `Endereço de e-mail reservado para o usuário ${short(d.userId)}`,
  EmailReleased: (d) => `Endereço de e-mail liberado pelo usuário ${short(d.userId)}`,
  UsernameReserved: (d) => `Nome de usuário reservado para o usuário ${short(d.userId)}`,
  UsernameReleased: (d) => `Nome de usuário liberado pelo usuário ${short(d.userId)}`,
  // mail and notifications
  MailRequested: (d) => `E-mail "${t(d.template)}" na fila para ${t(d.to)}`,
  MailDelivered: (d) => `E-mail entregue${d.transport ? ` via ${t(d.transport)}` : ''}`,
  MailFailed: (d) => `Falha na entrega do e-mail${d.final ? ' em definitivo' : `, tentativa ${t(d.attempt)}`}: ${t(d.error)}`,
  NotificationsSeen: (d) => `${count(d.ids, 'notificação marcada como vista', 'notificações marcadas como vistas')}`,
  NotificationsDeleted: (d) => `${count(d.ids, 'notificação excluída', 'notificações excluídas')}`,
  // storage
  StorageOpened: (d, w) => `Armazenamento ${t(d.type)} de ${w.bytes(d.sizeTotal)} aberto`,
  StorageQuotaChanged: (d, w) => `Cota de armazenamento definida em ${w.bytes(d.sizeTotal)}`,
  StoragePurged: (d) => `Armazenamento apagado (${count(d.destroyed, 'item destruído', 'itens destruídos')})`,
  QuotaReserved: (d, w) => `${w.bytes(d.size)} reservados para um envio`,
  QuotaReleased: () => 'Reserva de envio liberada',
  FileAdded: (d, w) =>
    `Arquivo ${quoted(d.name)} ${d.copiedFrom ? 'copiado' : 'enviado'} (${w.bytes(d.size)}${d.encrypted || d.e2eeEnabled ? ', criptografado de ponta a ponta' : ''})`,
  FolderCreated: (d) => `Pasta ${quoted(d.name)} ${d.copiedFrom ? 'copiada' : 'criada'}`,
  ItemRenamed: (d) => `Item renomeado para ${quoted(d.name)}`,
  ItemMoved: (d) => (d.parentId ? 'Item movido para outra pasta' : 'Item movido para a pasta principal'),
  ItemDetailsChanged: (d) => `Detalhes de um item alterados: ${t(d.details, 'nenhum')}`,
  ItemExpirySet: (d, w) => (d.expiresAt ? `Item definido para expirar em ${w.when(d.expiresAt)}` : 'Expiração de um item removida'),
  ItemTrashed: (d, w) => `Item movido para a lixeira (${w.bytes(d.size)})`,
  ItemRestored: (d) => `${quoted(d.name)} restaurado da lixeira`,
  ItemDeleted: (d, w) =>
    `Item excluído definitivamente (${w.bytes(d.size)}${Array.isArray(d.descendantIds) && d.descendantIds.length ? `, com ${count(d.descendantIds, 'item', 'itens')} dentro` : ''})`,
  // billing
  CheckoutStarted: (d, w) =>
    `Compra iniciada de ${w.product(d.productId)} x${t(d.quantity, '1')} por ${usd(d.amount)}${d.promo ? ' com um código promocional' : ''}`,
  CheckoutLinkIssued: () => 'Link de pagamento emitido',
  CheckoutDeclined: () => 'Pagamento recusado',
  SubscriptionStarted: (d, w) =>
    `Assinatura de ${w.product(d.productId)} iniciada (${cycle(d.cycle)}), próximo pagamento ${w.when(d.nextPaymentDate, 'nenhum')}`,
  SubscriptionRenewed: (d, w) => `Assinatura renovada, próximo pagamento ${w.when(d.nextPaymentDate)}`,
  SubscriptionCanceled: (d, w) => `Assinatura cancelada${by(d.by)}, termina em ${w.when(d.endDate)}`,
  PaymentRecorded: (d, w) => `Pagamento de ${usd(d.amount)} por ${w.product(d.productId)}: ${t(d.status)}${d.promoCode ? ` (promoção ${t(d.promoCode)})` : ''}`,
  RenewalFailed: (d, w) => `Falha no pagamento da renovação; período de carência até ${w.when(d.graceEndDate)}`,
  UnpaidStorageDeletionDue: () => 'Armazenamento não pago prestes a ser excluído',
  PlanChangedByStaff: (d) => `Plano alterado pela equipe de ${t(d.previousPlan)} para ${t(d.plan)}`,
  PromoCodeCreated: (d) => `Código promocional ${t(d.code)} criado (${t(d.status)}${discount(d.discount)})`,
  PromoCodeUpdated: (d) => `Condições do código promocional atualizadas${discount(d.discount)}`,
  PromoCodeStatusChanged: (d) => `Código promocional ${d.status === 'active' ? 'ativado' : 'desativado'}`,
  PromoCodeDeleted: () => 'Código promocional excluído',
  PromoCodeUsed: (d) => `Código promocional usado pelo usuário ${short(d.userId)}`,
  PromoCodeUseReserved: (d) => `Uso do código promocional reservado para uma compra do usuário ${short(d.userId)}`,
  PromoCodeUseReleased: (d) => `Uso do código promocional liberado (${t(d.reason)})`,
  // wallet
  WalletAddressesCreated: () => 'Endereços da carteira criados',
  WalletSendNoted: (d) => `Nota em uma transação enviada: ${t(d.note)}`,
  WalletDataForgotten: () => 'Notas da carteira esquecidas',
  ContactAdded: (d) => `Contato ${t(d.nickname)} adicionado`,
  ContactChanged: (d) => `Contato ${t(d.nickname)} alterado`,
  ContactRemoved: () => 'Contato removido',
  ContactsForgotten: () => 'Contatos esquecidos',
  ChainBlockMined: (d) => `Bloco ${t(d.height)} minerado com ${count(d.txids, 'transação', 'transações')}`,
  ChainCoinsMinted: (d) => `${axel(d.amount)} emitidos para ${t(d.to)}`,
  ChainTransferAccepted: (d) => `${axel(d.amount)} enviados de ${t(d.from)} para ${t(d.to)}`,
  // bookmarks and share visits
  BookmarkAdded: (d) => `Compartilhamento salvo nos favoritos como ${quoted(d.description)}`,
  BookmarkRenamed: (d) => `Favorito renomeado para ${quoted(d.description)}`,
  BookmarkMoved: (d) => (d.bookmarkListId ? 'Favorito movido para uma lista' : 'Favorito retirado da sua lista'),
  BookmarkRemoved: () => 'Favorito removido',
  BookmarkListCreated: (d) => `Lista de favoritos ${quoted(d.name)} criada`,
  BookmarkListRenamed: (d) => `Lista de favoritos renomeada para ${quoted(d.name)}`,
  BookmarkListDeleted: () => 'Lista de favoritos excluída',
  BookmarksForgotten: () => 'Favoritos esquecidos',
  // bloqueio em duas etapas
  LockCodeIssued: () => 'Código de verificação enviado por e-mail para um bloqueio em duas etapas',
  LockCodeRejected: (d) =>
    `Código de verificação incorreto (${d.purpose === 'lock' ? 'ao bloquear' : d.purpose === 'unlock' ? 'ao desbloquear' : 'ao abrir'} um item)`,
  ItemTwoFactorLocked: (d) => `Item bloqueado com verificação em duas etapas (${secondFactor(d.method)})`,
  ItemTwoFactorUnlocked: (d) => `Bloqueio em duas etapas de um item removido (${secondFactor(d.method)})`,
  LockAccessGranted: (d) => `Item bloqueado aberto com um código de verificação (${secondFactor(d.method)})`,
  LockedItemOpened: (d) => `Item bloqueado usado (${t(d.action)})`,
  // criptografia de ponta a ponta
  E2eeKeySet: () => 'Frase secreta de ponta a ponta definida',
  E2eePassphraseChanged: () => 'Frase secreta de ponta a ponta trocada (mesma chave)',
  E2eeKeyReset: () => 'Frase secreta de ponta a ponta redefinida (nova chave: arquivos anteriores não podem mais ser abertos)',
  E2eeDefaultsChanged: (d) => `Criptografia de ponta a ponta de novos envios ${d.encryptionDefault ? 'ativada' : 'desativada'}`,
  E2eeKeysForgotten: () => 'Chaves de ponta a ponta esquecidas',
  ShareSignatureAdded: (d) => `Assinatura guardada para o arquivo compartilhado ${quoted(d.signedFileName)}`,
  ShareSignaturesForgotten: () => 'Assinaturas de arquivos compartilhados esquecidas',
  // equipes
  TeamCreated: (d) => `Equipe aberta no plano ${t(d.planKind)}`,
  TeamPlanChanged: (d) => `Equipe passada para o plano ${t(d.planKind)}`,
  TeamMemberInvited: (d, w) => `Membro convidado por e-mail com uma cota de ${w.bytes(d.quotaBytes)}`,
  TeamInviteLinkCreated: () => 'Link de convite da equipe criado',
  TeamInviteLinkRevoked: () => 'Link de convite da equipe revogado',
  TeamMemberJoined: (d) => (d.via === 'link' ? 'Entrou na equipe pelo link de convite' : 'Entrou na equipe por um convite'),
  TeamMemberRemoved: () => 'Membro removido da equipe',
  TeamMemberSuspended: () => 'Membro da equipe suspenso',
  TeamMemberUnsuspended: () => 'Membro da equipe reativado',
  TeamMemberQuotaSet: (d, w) => `Cota do membro definida em ${w.bytes(d.quotaBytes)}`,
  TeamMemberRoleChanged: (d) => (d.role === 'co_admin_member' ? 'Membro tornado coadministrador' : 'Coadministrador tornado membro'),
  TeamMemberForbiddenActionsSet: (d) =>
    Array.isArray(d.actions) && d.actions.length
      ? `O membro não pode mais: ${d.actions.map((a) => FORBIDDEN[String(a)] ?? t(a)).join(', ')}`
      : 'O membro volta a poder fazer tudo',
  TeamGroupCreated: (d) => `Grupo ${quoted(d.name)} criado`,
  TeamGroupRenamed: (d) => `Grupo renomeado para ${quoted(d.name)}`,
  TeamGroupDeleted: () => 'Grupo excluído',
  TeamGroupMembersSet: (d) => `Membros do grupo definidos (${count(d.memberIds, 'membro')})`,
  TeamItemPermissionsSet: (d) => `Permissões da pasta definidas: ${grantsIn(d.grants, LEVELS, 'ninguém')}`,
  TeamClosed: (d) => (d.reason === 'downgrade' ? 'Equipe encerrada por uma mudança de plano' : 'Equipe encerrada com a conta do proprietário'),
  TeamForgotten: () => 'Equipe esquecida',
  TeamBrandingNameSet: (d) => (d.companyName ? `Nome ou slogan da equipe: ${quoted(d.companyName)}` : 'Nome ou slogan da equipe removido'),
  TeamLogoSet: (d) => `Logotipo da equipe definido (${d.width}x${d.height})`,
  TeamLogoRemoved: () => 'Logotipo da equipe removido',
  TeamCustomUrlSet: (d) => `URL personalizada: ${quoted(d.subdomain)}`,
  TeamCustomUrlRemoved: (d) => `URL personalizada ${quoted(d.subdomain)} removida`,
  TeamBrandingForgotten: () => 'Marca da equipe esquecida',
  CustomUrlReserved: () => 'URL personalizada reservada por uma equipe',
  CustomUrlReleased: () => 'URL personalizada liberada',
  TeamInviteIssued: () => 'Convite da equipe enviado',
  TeamInviteClosed: (d) => (d.outcome === 'accepted' ? 'Convite da equipe aceito' : 'Convite da equipe retirado'),
  TeamMembershipTaken: () => 'Tornou-se membro de uma equipe',
  TeamMembershipReleased: () => 'Saiu de uma equipe',
  ShareOpened: (d) => `Compartilhamento ${kind(d)} aberto${d.recipientEmail ? ` por ${t(d.recipientEmail)}` : ''}${d.firstOpen ? ' pela primeira vez' : ''}`,
  ShareDownloaded: (d) =>
    `${d.archive ? 'Arquivo compactado' : 'Arquivo'} baixado de um compartilhamento${d.recipientEmail ? ` por ${t(d.recipientEmail)}` : ''}`,
  ShareAccessForgotten: () => 'Visitantes de um compartilhamento esquecidos',
  // shares
  ShareCreated: (d, w) =>
    `Compartilhamento ${kind(d)} ${quoted(d.title)} criado com ${count(d.items, 'item', 'itens')} (${w.bytes(d.totalSize)})${
      Array.isArray(d.recipients) && d.recipients.length ? ` para ${count(d.recipients, 'destinatário', 'destinatários')}` : ''
    }`,
  ShareEdited: (d) =>
    `Compartilhamento editado: ${
      ['title', 'description', 'expiresAt', 'downloadable', 'requireLogin', 'passwordHash']
        .filter((k) => d[k] !== undefined)
        .map((k) => (k === 'passwordHash' ? 'senha' : k))
        .join(', ') || 'nada'
    }`,
  ShareRevoked: () => 'Compartilhamento revogado',
  ShareDeleted: () => 'Compartilhamento excluído',
  ShareRecipientsResent: (d) => `E-mail do compartilhamento reenviado para ${count(d.recipients, 'destinatário', 'destinatários')}`,
  ShareRecipientBlocked: (d) => `Destinatário ${t(d.email)} bloqueado no compartilhamento`,
  ShareRecipientUnblocked: (d) => `Destinatário ${t(d.email)} desbloqueado`,
  ShareCounted: (d) => `Compartilhamento contado no plano para ${t(d.period)}`,
  ShareExpiryReminded: (d) => `Titular lembrado de que o compartilhamento expira em ${count(d.daysLeft, 'dia')}`,
  ShareForgotten: () => 'Compartilhamento esquecido junto com o titular apagado',
  CartOpened: () => 'Carrinho de envio e compartilhamento aberto',
  CartEntriesAdded: (d) => `${count(d.fileIds, 'arquivo adicionado', 'arquivos adicionados')} ao carrinho`,
  CartEntryRemoved: () => 'Um arquivo removido do carrinho',
  CartShareStarted: () => 'Compartilhamento do carrinho iniciado',
  CartShareAbandoned: () => 'Compartilhamento do carrinho abandonado',
  CartShared: () => 'Carrinho compartilhado',
  // secure fetch
  SecureFetchCreated: (d, w) => `Link Secure Fetch criado (${t(d.type)})${d.expiresAt ? `, expira em ${w.when(d.expiresAt)}` : ''}`,
  SecureFetchRevoked: () => 'Link Secure Fetch revogado',
  SecureFetchSubmitted: (d, w) => `${count(d.files ?? d.itemIds, 'arquivo enviado', 'arquivos enviados')} pelo Secure Fetch (${w.bytes(d.totalSize)})`,
  SecureFetchItemOpened: () => 'Um arquivo recebido pelo Secure Fetch foi aberto',
  SecureFetchPaymentStarted: () => 'Pagamento do certificado Secure Fetch iniciado',
  SecureFetchPaymentFailed: (d) => `Pagamento Secure Fetch recusado: ${t(d.refusedWith)}`,
  SecureFetchPaid: (d) => `Secure Fetch pago: ${axel(d.amount)}`,
  SecureFetchFilesCollected: (d) => `${count(d.itemIds, 'arquivo recolhido', 'arquivos recolhidos')} do Secure Fetch`,
  SecureFetchForgotten: () => 'Link Secure Fetch esquecido junto com o titular apagado',
  SecureFetchCounted: () => 'Link Secure Fetch contado no plano',
  // auto-pay programs
  AutoPayProgramCreated: (d) => `Programa de pagamento automático ${quoted(d.name)} criado`,
  AutoPayProgramEdited: (d) => `Programa de pagamento automático renomeado ou descrito como ${quoted(d.name)}`,
  AutoPayPayeeAdded: (d) => `Beneficiário ${t(d.payeeName)} adicionado por ${axel(d.amount)}`,
  AutoPayPayeeChanged: (d) => `Beneficiário ${t(d.payeeName)} alterado para ${axel(d.amount)}`,
  AutoPayPayeeRemoved: () => 'Beneficiário removido',
  AutoPayPayeesImported: (d) => `${count(d.payees, 'beneficiário importado', 'beneficiários importados')}${d.replaced ? ', substituindo a lista' : ''}`,
  AutoPayProgramSubmitted: (d) => `Envio ${t(d.submission)} mandado para aprovação`,
  AutoPayProgramReturnedToDraft: (d) => `Envio ${t(d.submission)} retirado: o programa mudou`,
  AutoPayApprovalReminded: (d) => `Aprovadores lembrados do envio ${t(d.submission)}`,
  AutoPayProgramApproved: (d) => `Envio ${t(d.submission)} aprovado`,
  AutoPayProgramRejected: (d) => (d.cause === 'expired' ? `Envio ${t(d.submission)} expirou sem aprovação` : `Envio ${t(d.submission)} rejeitado`),
  AutoPayProgramLocked: () => 'Programa bloqueado',
  AutoPayProgramUnlocked: () => 'Programa desbloqueado',
  AutoPayProgramCancelled: (d) => `Envio ${t(d.submission)} cancelado`,
  AutoPayPayoutStarted: (d) => `Pagamento do envio ${t(d.submission)} iniciado (tentativa ${t(d.attempt)})`,
  AutoPayPayeePaid: (d) => `Beneficiário pago na transação ${short(d.txid)}`,
  AutoPayPayeePayoutFailed: (d) => `Falha no pagamento a um beneficiário: ${t(d.failure)}`,
  AutoPayPayoutFinished: (d) => `Pagamento concluído: ${t(d.paid, '0')} pagos, ${t(d.failed, '0')} com falha`,
  AutoPayRetryRequested: (d) => `Nova tentativa dos pagamentos com falha solicitada (tentativa ${t(d.attempt)})`,
  AutoPayNameReserved: () => 'Nome do programa reservado',
  AutoPayNameReleased: () => 'Nome do programa liberado',
  // storage upkeep
  BlobMaintenanceScheduled: (d) =>
    `Manutenção do armazenamento agendada: verificação a cada ${minutes(d.scrubEveryMs)}, coleta a cada ${minutes(d.collectEveryMs)}`,
  // IPFS pins, connected apps, devices, backups, regions, e-sign
  IpfsPinRequested: () => 'Fixação no IPFS solicitada',
  IpfsPinStarted: () => 'Fixação no IPFS iniciada',
  IpfsPinPinned: () => 'Fixado no IPFS',
  IpfsPinFailed: () => 'A fixação no IPFS falhou',
  IpfsPinRetried: () => 'Fixação no IPFS tentada de novo',
  IpfsPinRemoved: () => 'Removido do IPFS',
  IpfsGatewayChosen: () => 'Gateway IPFS preferido escolhido',
  IpfsSettingsForgotten: () => 'Configurações do IPFS esquecidas',
  AppConnected: () => 'Aplicativo conectado',
  AppDisconnected: () => 'Aplicativo desconectado',
  DropboxFileImported: () => 'Arquivo importado do Dropbox',
  DropboxFileUploaded: () => 'Arquivo enviado ao Dropbox',
  ClioDocumentFiled: () => 'Documento arquivado em um caso do Clio',
  IntegrationsForgotten: () => 'Aplicativos conectados esquecidos',
  CloudLockerRegistered: () => 'CloudLocker registrou sua chave',
  CloudLockerCheckedIn: () => 'CloudLocker se conectou',
  CloudLockerSizeReported: () => 'CloudLocker informou seu tamanho',
  CloudLockerClaimOpened: () => 'Vinculação de CloudLocker iniciada',
  CloudLockerBound: () => 'CloudLocker vinculado a uma conta',
  CloudLockerUnbound: () => 'CloudLocker desvinculado',
  CloudLockerDeleted: () => 'CloudLocker excluído',
  BackupDeviceRegistered: () => 'Dispositivo de backup adicionado',
  BackupDeviceSeen: () => 'Dispositivo de backup visto',
  BackupPathsChanged: () => 'Caminhos de backup alterados',
  BackupStopped: () => 'Backup interrompido',
  BackupResumed: () => 'Backup retomado',
  BackupsForgotten: () => 'Dispositivos de backup esquecidos',
  RegionChosen: () => 'Região de armazenamento escolhida para novos envios',
  EsignPackageCreated: () => 'Pacote de assinatura criado',
  EsignEntryAdded: () => 'Documento adicionado a um pacote de assinatura',
  EsignEntryRemoved: () => 'Documento removido de um pacote de assinatura',
  EsignSignerAdded: () => 'Signatário adicionado',
  EsignSignerRemoved: () => 'Signatário removido',
  EsignPinPlaced: () => 'Campo de assinatura posicionado',
  EsignPinRemoved: () => 'Campo de assinatura removido',
  EsignPackageSent: () => 'Pacote de assinatura enviado para assinar',
  EsignSignerSigned: () => 'O signatário assinou',
  EsignSignerFinished: () => 'O signatário concluiu',
  EsignPackageCompleted: () => 'Pacote de assinatura concluído e selado',
  EsignPackageArchived: () => 'Pacote de assinatura arquivado',
  EsignPackageUnarchived: () => 'Pacote de assinatura tirado do arquivo',
  EsignPackageDeleted: () => 'Pacote de assinatura excluído',
  EsignPackageForgotten: () => 'Pacote de assinatura esquecido',
};
