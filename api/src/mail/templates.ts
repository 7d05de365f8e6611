import type { MailTemplate } from '@axel/domain/mail/mail.events';

export interface MailParams {
  link?: string;
  code?: string;
  email?: string;
  days?: number;
  /** A deadline, YYYY-MM-DD. */
  date?: string;
  /** A share's title and the sender's message (share mails). */
  title?: string;
  message?: string;
}

type Copy = { subject: string; lines: (p: MailParams) => string[]; action?: string };
type Catalogue = Record<MailTemplate, Copy>;

const en: Catalogue = {
  'email-confirmation': {
    subject: 'Confirm your e-mail address',
    lines: () => ['Welcome to AXEL Drive.', 'Confirm your e-mail address to start using your account. The link is valid for 24 hours.'],
    action: 'Confirm e-mail',
  },
  'password-reset': {
    subject: 'Reset your password',
    lines: () => [
      'Someone asked to reset the password of your account.',
      'If it was you, choose a new password with the link below (valid for 1 hour). Otherwise ignore this mail.',
    ],
    action: 'Choose a new password',
  },
  'email-change': {
    subject: 'Confirm your new e-mail address',
    lines: (p) => [`Confirm ${p.email ?? 'this address'} as the new sign-in e-mail of your account. The link is valid for 24 hours.`],
    action: 'Confirm new e-mail',
  },
  'two-factor-code': {
    subject: 'Your verification code',
    lines: (p) => [`Your verification code is ${p.code}.`, 'It expires in 10 minutes. Never share it with anyone.'],
  },
  'two-factor-reset': {
    subject: 'Reset two-factor authentication',
    lines: () => ['Someone asked to turn off two-factor authentication on your account.', 'If it was you, confirm with the link below (valid for 1 hour).'],
    action: 'Turn off two-factor authentication',
  },
  'account-deleted': {
    subject: 'Your account was deleted',
    lines: (p) => [
      `Your account was deleted. Your files and personal data will be erased in ${p.days} days.`,
      'If you did not ask for this, contact support at once.',
    ],
  },
  'account-purged': {
    subject: 'Your data was erased',
    lines: () => ['As announced, the personal data and files of your deleted account have now been erased.'],
  },
  'email-changed': {
    subject: 'The e-mail of your AXEL Drive account was changed',
    lines: (p) => [
      `The sign-in e-mail of your AXEL Drive account was changed to ${p.email ?? 'a new address'}. This address no longer signs in.`,
      'If you did not do this, contact support at once.',
    ],
  },
  'password-changed': {
    subject: 'The password of your AXEL Drive account was changed',
    lines: () => [
      'The password of your AXEL Drive account was changed, and your other sessions were signed out.',
      'If you did not do this, reset your password at once with "Forgot your password?" on the sign-in page, and contact support.',
    ],
  },
  'two-factor-disabled': {
    subject: 'Two-factor authentication was turned off',
    lines: () => [
      'Two-factor authentication was turned off on your AXEL Drive account. Signing in now needs only your password.',
      'If you did not do this, change your password at once and turn two-factor authentication on again.',
    ],
  },
  'payment-failed': {
    subject: 'Your payment failed',
    lines: (p) => [
      `The renewal payment of your AXEL Drive plan failed. Your plan keeps running until ${p.date}: pay before then under Subscription to keep your account.`,
    ],
  },
  'payment-reminder': {
    subject: 'Reminder: your AXEL Drive payment is due',
    lines: (p) => [`Your AXEL Drive plan is still unpaid. Pay before ${p.date} under Subscription, or your account and files will be removed as announced.`],
  },
  'account-deactivated': {
    subject: 'Your AXEL Drive account was deactivated',
    lines: (p) => [
      `Your account was deactivated because the payment of your plan is missing. Pay to use it again; otherwise your files will be deleted on ${p.date}.`,
    ],
  },
  'storage-deleted': {
    subject: 'Your AXEL Drive files are being deleted',
    lines: (p) => [
      `Your plan is still unpaid, so the files of your account are being deleted. The account itself will be deleted on ${p.date} unless you pay before then.`,
    ],
  },
  'payment-restored': {
    subject: 'Thank you: your payment was received',
    lines: () => ['Your payment was received and your AXEL Drive account is fully active again.'],
  },
  'esign-request': {
    subject: 'A document is waiting for your signature',
    lines: (p) => [
      `${p.email ?? 'Someone'} asks you to sign "${p.title ?? ''}" on AXEL Drive.`,
      ...(p.message ? [p.message] : []),
      'Open it with the password the sender gives you.',
    ],
    action: 'Review and sign',
  },
  'share-received': {
    subject: 'A private share was sent to you',
    lines: (p) => [
      `${p.email ?? 'Someone'} shared "${p.title ?? ''}" with you on AXEL Drive.`,
      ...(p.message ? [p.message] : []),
      'Open it with this e-mail address and the password the sender gives you.',
    ],
    action: 'Open the share',
  },
  'share-expiring': {
    subject: 'Your share expires soon',
    lines: (p) => [`Your share "${p.title ?? ''}" expires in ${p.days} day(s), on ${p.date}.`, 'Edit it to keep it available longer.'],
    action: 'See your shares',
  },
  'support-request': {
    subject: 'Support request',
    lines: (p) => [`${p.email ?? 'A user'} asked for help.`, `Subject: ${p.title ?? ''}`, p.message ?? ''],
  },
  'contact-message': {
    subject: 'A message from a member of your team',
    lines: (p) => [
      `${p.email ?? 'A member'} wrote to you through AXEL Drive.`,
      `Subject: ${p.title ?? ''}`,
      p.message ?? '',
      'Reply to their address to answer.',
    ],
  },
  'autopay-approval-reminder': {
    subject: 'An auto-pay program waits for your approval',
    lines: (p) => [
      `The auto-pay program "${p.title ?? ''}" was submitted by ${p.email ?? 'a staff member'} and waits for a second staff member to approve or reject it.`,
      `Nobody has decided yet. Without a decision the submission expires on ${p.date}.`,
    ],
    action: 'Review the program',
  },
  'team-invite': {
    subject: 'You are invited to join a team on AXEL Drive',
    lines: (p) => [
      `${p.email ?? 'A team admin'} invites you to join their team "${p.title ?? ''}" on AXEL Drive.`,
      "Accept to share the team's folders. Without an account yet, you create one on the way.",
    ],
    action: 'Accept the invite',
  },
};

const es: Catalogue = {
  'email-confirmation': {
    subject: 'Confirma tu correo electrónico',
    lines: () => ['Bienvenido a AXEL Drive.', 'Confirma tu correo electrónico para empezar a usar tu cuenta. El enlace es válido durante 24 horas.'],
    action: 'Confirmar correo',
  },
  'password-reset': {
    subject: 'Restablece tu contraseña',
    lines: () => [
      'Alguien pidió restablecer la contraseña de tu cuenta.',
      'Si fuiste tú, elige una nueva contraseña con el enlace de abajo (válido durante 1 hora). Si no, ignora este correo.',
    ],
    action: 'Elegir una nueva contraseña',
  },
  'email-change': {
    subject: 'Confirma tu nuevo correo electrónico',
    lines: (p) => [`Confirma ${p.email ?? 'esta dirección'} como el nuevo correo de inicio de sesión de tu cuenta. El enlace es válido durante 24 horas.`],
    action: 'Confirmar nuevo correo',
  },
  'two-factor-code': {
    subject: 'Tu código de verificación',
    lines: (p) => [`Tu código de verificación es ${p.code}.`, 'Caduca en 10 minutos. Nunca lo compartas con nadie.'],
  },
  'two-factor-reset': {
    subject: 'Restablecer la autenticación de dos factores',
    lines: () => [
      'Alguien pidió desactivar la autenticación de dos factores de tu cuenta.',
      'Si fuiste tú, confirma con el enlace de abajo (válido durante 1 hora).',
    ],
    action: 'Desactivar la autenticación de dos factores',
  },
  'account-deleted': {
    subject: 'Tu cuenta fue eliminada',
    lines: (p) => [
      `Tu cuenta fue eliminada. Tus archivos y datos personales se borrarán en ${p.days} días.`,
      'Si no lo pediste, contacta con soporte de inmediato.',
    ],
  },
  'account-purged': {
    subject: 'Tus datos fueron borrados',
    lines: () => ['Como se anunció, los datos personales y archivos de tu cuenta eliminada ya fueron borrados.'],
  },
  'email-changed': {
    subject: 'Se cambió el correo de tu cuenta de AXEL Drive',
    lines: (p) => [
      `El correo de inicio de sesión de tu cuenta de AXEL Drive se cambió a ${p.email ?? 'una nueva dirección'}. Esta dirección ya no sirve para iniciar sesión.`,
      'Si no fuiste tú, contacta con soporte de inmediato.',
    ],
  },
  'password-changed': {
    subject: 'Se cambió la contraseña de tu cuenta de AXEL Drive',
    lines: () => [
      'Se cambió la contraseña de tu cuenta de AXEL Drive y se cerraron tus otras sesiones.',
      'Si no fuiste tú, restablece tu contraseña de inmediato con "¿Olvidaste tu contraseña?" en la página de inicio de sesión y contacta con soporte.',
    ],
  },
  'two-factor-disabled': {
    subject: 'Se desactivó la autenticación de dos factores',
    lines: () => [
      'Se desactivó la autenticación de dos factores de tu cuenta de AXEL Drive. Ahora basta tu contraseña para iniciar sesión.',
      'Si no fuiste tú, cambia tu contraseña de inmediato y vuelve a activar la autenticación de dos factores.',
    ],
  },
  'payment-failed': {
    subject: 'Tu pago falló',
    lines: (p) => [
      `El pago de renovación de tu plan de AXEL Drive falló. Tu plan sigue activo hasta el ${p.date}: paga antes en Suscripción para conservar tu cuenta.`,
    ],
  },
  'payment-reminder': {
    subject: 'Recordatorio: tu pago de AXEL Drive está pendiente',
    lines: (p) => [`Tu plan de AXEL Drive sigue sin pagar. Paga antes del ${p.date} en Suscripción, o tu cuenta y tus archivos se eliminarán como se anunció.`],
  },
  'account-deactivated': {
    subject: 'Tu cuenta de AXEL Drive fue desactivada',
    lines: (p) => [
      `Tu cuenta fue desactivada porque falta el pago de tu plan. Paga para volver a usarla; de lo contrario tus archivos se eliminarán el ${p.date}.`,
    ],
  },
  'storage-deleted': {
    subject: 'Se están eliminando tus archivos de AXEL Drive',
    lines: (p) => [`Tu plan sigue sin pagar, así que se están eliminando los archivos de tu cuenta. La cuenta se eliminará el ${p.date} si no pagas antes.`],
  },
  'payment-restored': {
    subject: 'Gracias: recibimos tu pago',
    lines: () => ['Recibimos tu pago y tu cuenta de AXEL Drive vuelve a estar completamente activa.'],
  },
  'esign-request': {
    subject: 'Un documento espera tu firma',
    lines: (p) => [
      `${p.email ?? 'Alguien'} te pide firmar "${p.title ?? ''}" en AXEL Drive.`,
      ...(p.message ? [p.message] : []),
      'Ábrelo con la contraseña que te dé el remitente.',
    ],
    action: 'Revisar y firmar',
  },
  'share-received': {
    subject: 'Te enviaron un recurso compartido privado',
    lines: (p) => [
      `${p.email ?? 'Alguien'} compartió "${p.title ?? ''}" contigo en AXEL Drive.`,
      ...(p.message ? [p.message] : []),
      'Ábrelo con esta dirección de correo y la contraseña que te dé el remitente.',
    ],
    action: 'Abrir el recurso compartido',
  },
  'share-expiring': {
    subject: 'Tu recurso compartido caduca pronto',
    lines: (p) => [`Tu recurso compartido "${p.title ?? ''}" caduca en ${p.days} día(s), el ${p.date}.`, 'Edítalo para mantenerlo disponible más tiempo.'],
    action: 'Ver tus recursos compartidos',
  },
  'support-request': {
    subject: 'Solicitud de soporte',
    lines: (p) => [`${p.email ?? 'Un usuario'} pidió ayuda.`, `Asunto: ${p.title ?? ''}`, p.message ?? ''],
  },
  'contact-message': {
    subject: 'Un mensaje de un miembro de tu equipo',
    lines: (p) => [
      `${p.email ?? 'Un miembro'} te escribió a través de AXEL Drive.`,
      `Asunto: ${p.title ?? ''}`,
      p.message ?? '',
      'Responde a su dirección para contestar.',
    ],
  },
  'autopay-approval-reminder': {
    subject: 'Un programa de pago automático espera tu aprobación',
    lines: (p) => [
      `El programa de pago automático "${p.title ?? ''}" fue enviado por ${p.email ?? 'un miembro del personal'} y espera que otro miembro del personal lo apruebe o lo rechace.`,
      `Nadie ha decidido todavía. Sin una decisión, el envío vence el ${p.date}.`,
    ],
    action: 'Revisar el programa',
  },
  'team-invite': {
    subject: 'Te invitaron a unirte a un equipo en AXEL Drive',
    lines: (p) => [
      `${p.email ?? 'Un administrador de equipo'} te invita a unirte a su equipo "${p.title ?? ''}" en AXEL Drive.`,
      'Acepta para compartir las carpetas del equipo. Si aún no tienes cuenta, la creas en el camino.',
    ],
    action: 'Aceptar la invitación',
  },
};

const pt: Catalogue = {
  'email-confirmation': {
    subject: 'Confirme seu e-mail',
    lines: () => ['Bem-vindo ao AXEL Drive.', 'Confirme seu e-mail para começar a usar sua conta. O link é válido por 24 horas.'],
    action: 'Confirmar e-mail',
  },
  'password-reset': {
    subject: 'Redefina sua senha',
    lines: () => [
      'Alguém pediu para redefinir a senha da sua conta.',
      'Se foi você, escolha uma nova senha pelo link abaixo (válido por 1 hora). Caso contrário, ignore este e-mail.',
    ],
    action: 'Escolher uma nova senha',
  },
  'email-change': {
    subject: 'Confirme seu novo e-mail',
    lines: (p) => [`Confirme ${p.email ?? 'este endereço'} como o novo e-mail de acesso da sua conta. O link é válido por 24 horas.`],
    action: 'Confirmar novo e-mail',
  },
  'two-factor-code': {
    subject: 'Seu código de verificação',
    lines: (p) => [`Seu código de verificação é ${p.code}.`, 'Ele expira em 10 minutos. Nunca o compartilhe com ninguém.'],
  },
  'two-factor-reset': {
    subject: 'Redefinir a autenticação de dois fatores',
    lines: () => ['Alguém pediu para desativar a autenticação de dois fatores da sua conta.', 'Se foi você, confirme pelo link abaixo (válido por 1 hora).'],
    action: 'Desativar a autenticação de dois fatores',
  },
  'account-deleted': {
    subject: 'Sua conta foi excluída',
    lines: (p) => [
      `Sua conta foi excluída. Seus arquivos e dados pessoais serão apagados em ${p.days} dias.`,
      'Se você não pediu isso, fale com o suporte imediatamente.',
    ],
  },
  'account-purged': {
    subject: 'Seus dados foram apagados',
    lines: () => ['Como anunciado, os dados pessoais e arquivos da sua conta excluída foram apagados.'],
  },
  'email-changed': {
    subject: 'O e-mail da sua conta AXEL Drive foi alterado',
    lines: (p) => [
      `O e-mail de acesso da sua conta AXEL Drive foi alterado para ${p.email ?? 'um novo endereço'}. Este endereço não serve mais para entrar.`,
      'Se não foi você, fale com o suporte imediatamente.',
    ],
  },
  'password-changed': {
    subject: 'A senha da sua conta AXEL Drive foi alterada',
    lines: () => [
      'A senha da sua conta AXEL Drive foi alterada e suas outras sessões foram encerradas.',
      'Se não foi você, redefina sua senha imediatamente em "Esqueceu sua senha?" na página de entrada e fale com o suporte.',
    ],
  },
  'two-factor-disabled': {
    subject: 'A autenticação de dois fatores foi desativada',
    lines: () => [
      'A autenticação de dois fatores da sua conta AXEL Drive foi desativada. Agora basta a senha para entrar.',
      'Se não foi você, altere sua senha imediatamente e ative de novo a autenticação de dois fatores.',
    ],
  },
  'payment-failed': {
    subject: 'Seu pagamento falhou',
    lines: (p) => [
      `O pagamento de renovação do seu plano AXEL Drive falhou. Seu plano continua ativo até ${p.date}: pague antes em Assinatura para manter sua conta.`,
    ],
  },
  'payment-reminder': {
    subject: 'Lembrete: seu pagamento do AXEL Drive está pendente',
    lines: (p) => [
      `Seu plano AXEL Drive continua sem pagamento. Pague antes de ${p.date} em Assinatura, ou sua conta e seus arquivos serão removidos como anunciado.`,
    ],
  },
  'account-deactivated': {
    subject: 'Sua conta AXEL Drive foi desativada',
    lines: (p) => [
      `Sua conta foi desativada porque falta o pagamento do seu plano. Pague para usá-la novamente; caso contrário, seus arquivos serão excluídos em ${p.date}.`,
    ],
  },
  'storage-deleted': {
    subject: 'Seus arquivos do AXEL Drive estão sendo excluídos',
    lines: (p) => [
      `Seu plano continua sem pagamento, então os arquivos da sua conta estão sendo excluídos. A conta será excluída em ${p.date} se você não pagar antes.`,
    ],
  },
  'payment-restored': {
    subject: 'Obrigado: recebemos seu pagamento',
    lines: () => ['Recebemos seu pagamento e sua conta AXEL Drive está totalmente ativa novamente.'],
  },
  'esign-request': {
    subject: 'Um documento aguarda sua assinatura',
    lines: (p) => [
      `${p.email ?? 'Alguém'} pede que você assine "${p.title ?? ''}" no AXEL Drive.`,
      ...(p.message ? [p.message] : []),
      'Abra com a senha que o remetente lhe der.',
    ],
    action: 'Revisar e assinar',
  },
  'share-received': {
    subject: 'Um compartilhamento privado foi enviado para você',
    lines: (p) => [
      `${p.email ?? 'Alguém'} compartilhou "${p.title ?? ''}" com você no AXEL Drive.`,
      ...(p.message ? [p.message] : []),
      'Abra com este endereço de e-mail e a senha que o remetente lhe der.',
    ],
    action: 'Abrir o compartilhamento',
  },
  'share-expiring': {
    subject: 'Seu compartilhamento expira em breve',
    lines: (p) => [`Seu compartilhamento "${p.title ?? ''}" expira em ${p.days} dia(s), em ${p.date}.`, 'Edite-o para mantê-lo disponível por mais tempo.'],
    action: 'Ver seus compartilhamentos',
  },
  'support-request': {
    subject: 'Pedido de suporte',
    lines: (p) => [`${p.email ?? 'Um usuário'} pediu ajuda.`, `Assunto: ${p.title ?? ''}`, p.message ?? ''],
  },
  'contact-message': {
    subject: 'Uma mensagem de um membro da sua equipe',
    lines: (p) => [
      `${p.email ?? 'Um membro'} escreveu para você pelo AXEL Drive.`,
      `Assunto: ${p.title ?? ''}`,
      p.message ?? '',
      'Responda ao endereço dessa pessoa.',
    ],
  },
  'autopay-approval-reminder': {
    subject: 'Um programa de pagamento automático aguarda sua aprovação',
    lines: (p) => [
      `O programa de pagamento automático "${p.title ?? ''}" foi enviado por ${p.email ?? 'um membro da equipe'} e aguarda que outro membro da equipe o aprove ou rejeite.`,
      `Ninguém decidiu ainda. Sem uma decisão, o envio expira em ${p.date}.`,
    ],
    action: 'Revisar o programa',
  },
  'team-invite': {
    subject: 'Você foi convidado para uma equipe no AXEL Drive',
    lines: (p) => [
      `${p.email ?? 'Um administrador de equipe'} convida você para a equipe "${p.title ?? ''}" no AXEL Drive.`,
      'Aceite para compartilhar as pastas da equipe. Se ainda não tem conta, você cria uma no caminho.',
    ],
    action: 'Aceitar o convite',
  },
};

const nl: Catalogue = {
  'email-confirmation': {
    subject: 'Bevestig je e-mailadres',
    lines: () => ['Welkom bij AXEL Drive.', 'Bevestig je e-mailadres om je account te gebruiken. De link is 24 uur geldig.'],
    action: 'E-mailadres bevestigen',
  },
  'password-reset': {
    subject: 'Stel je wachtwoord opnieuw in',
    lines: () => [
      'Iemand heeft gevraagd het wachtwoord van je account opnieuw in te stellen.',
      'Was jij dat, kies dan met de link hieronder een nieuw wachtwoord (1 uur geldig). Anders kun je deze e-mail negeren.',
    ],
    action: 'Nieuw wachtwoord kiezen',
  },
  'email-change': {
    subject: 'Bevestig je nieuwe e-mailadres',
    lines: (p) => [`Bevestig ${p.email ?? 'dit adres'} als het nieuwe aanmeldadres van je account. De link is 24 uur geldig.`],
    action: 'Nieuw e-mailadres bevestigen',
  },
  'two-factor-code': {
    subject: 'Je verificatiecode',
    lines: (p) => [`Je verificatiecode is ${p.code}.`, 'Hij verloopt over 10 minuten. Deel hem nooit met iemand.'],
  },
  'two-factor-reset': {
    subject: 'Tweestapsverificatie opnieuw instellen',
    lines: () => [
      'Iemand heeft gevraagd de tweestapsverificatie van je account uit te zetten.',
      'Was jij dat, bevestig dan met de link hieronder (1 uur geldig).',
    ],
    action: 'Tweestapsverificatie uitzetten',
  },
  'account-deleted': {
    subject: 'Je account is verwijderd',
    lines: (p) => [
      `Je account is verwijderd. Je bestanden en persoonsgegevens worden over ${p.days} dagen gewist.`,
      'Heb je dit niet gevraagd, neem dan meteen contact op met support.',
    ],
  },
  'account-purged': {
    subject: 'Je gegevens zijn gewist',
    lines: () => ['Zoals aangekondigd zijn de persoonsgegevens en bestanden van je verwijderde account nu gewist.'],
  },
  'email-changed': {
    subject: 'Het e-mailadres van je AXEL Drive-account is gewijzigd',
    lines: (p) => [
      `Het aanmeldadres van je AXEL Drive-account is gewijzigd in ${p.email ?? 'een nieuw adres'}. Met dit adres kun je je niet meer aanmelden.`,
      'Heb je dit niet gedaan, neem dan meteen contact op met support.',
    ],
  },
  'password-changed': {
    subject: 'Het wachtwoord van je AXEL Drive-account is gewijzigd',
    lines: () => [
      'Het wachtwoord van je AXEL Drive-account is gewijzigd en je andere sessies zijn afgemeld.',
      'Heb je dit niet gedaan, stel je wachtwoord dan meteen opnieuw in via "Wachtwoord vergeten?" op de aanmeldpagina en neem contact op met support.',
    ],
  },
  'two-factor-disabled': {
    subject: 'Tweestapsverificatie is uitgezet',
    lines: () => [
      'Tweestapsverificatie is uitgezet op je AXEL Drive-account. Aanmelden vraagt nu alleen je wachtwoord.',
      'Heb je dit niet gedaan, wijzig dan meteen je wachtwoord en zet tweestapsverificatie weer aan.',
    ],
  },
  'payment-failed': {
    subject: 'Je betaling is mislukt',
    lines: (p) => [
      `De verlengingsbetaling van je AXEL Drive-abonnement is mislukt. Je abonnement loopt door tot ${p.date}: betaal vóór die datum onder Abonnement om je account te behouden.`,
    ],
  },
  'payment-reminder': {
    subject: 'Herinnering: je AXEL Drive-betaling staat open',
    lines: (p) => [
      `Je AXEL Drive-abonnement is nog niet betaald. Betaal vóór ${p.date} onder Abonnement, anders worden je account en bestanden verwijderd zoals aangekondigd.`,
    ],
  },
  'account-deactivated': {
    subject: 'Je AXEL Drive-account is gedeactiveerd',
    lines: (p) => [
      `Je account is gedeactiveerd omdat de betaling van je abonnement ontbreekt. Betaal om het weer te gebruiken; anders worden je bestanden op ${p.date} verwijderd.`,
    ],
  },
  'storage-deleted': {
    subject: 'Je AXEL Drive-bestanden worden verwijderd',
    lines: (p) => [
      `Je abonnement is nog niet betaald, dus de bestanden van je account worden verwijderd. Het account zelf wordt op ${p.date} verwijderd als je niet eerder betaalt.`,
    ],
  },
  'payment-restored': {
    subject: 'Bedankt: je betaling is ontvangen',
    lines: () => ['Je betaling is ontvangen en je AXEL Drive-account is weer volledig actief.'],
  },
  'esign-request': {
    subject: 'Er wacht een document op je handtekening',
    lines: (p) => [
      `${p.email ?? 'Iemand'} vraagt je om "${p.title ?? ''}" te ondertekenen op AXEL Drive.`,
      ...(p.message ? [p.message] : []),
      'Open het met het wachtwoord dat de afzender je geeft.',
    ],
    action: 'Bekijken en ondertekenen',
  },
  'share-received': {
    subject: 'Er is een privédeling naar je gestuurd',
    lines: (p) => [
      `${p.email ?? 'Iemand'} heeft "${p.title ?? ''}" met je gedeeld op AXEL Drive.`,
      ...(p.message ? [p.message] : []),
      'Open de deling met dit e-mailadres en het wachtwoord dat de afzender je geeft.',
    ],
    action: 'Deling openen',
  },
  'share-expiring': {
    subject: 'Je deling verloopt binnenkort',
    lines: (p) => [`Je deling "${p.title ?? ''}" verloopt over ${p.days} dag(en), op ${p.date}.`, 'Bewerk de deling om haar langer beschikbaar te houden.'],
    action: 'Je delingen bekijken',
  },
  'support-request': {
    subject: 'Supportverzoek',
    lines: (p) => [`${p.email ?? 'Een gebruiker'} vraagt om hulp.`, `Onderwerp: ${p.title ?? ''}`, p.message ?? ''],
  },
  'contact-message': {
    subject: 'Een bericht van een lid van je team',
    lines: (p) => [
      `${p.email ?? 'Een lid'} heeft je via AXEL Drive geschreven.`,
      `Onderwerp: ${p.title ?? ''}`,
      p.message ?? '',
      'Antwoord naar hun adres om te reageren.',
    ],
  },
  'autopay-approval-reminder': {
    subject: 'Een auto-payprogramma wacht op je goedkeuring',
    lines: (p) => [
      `Het auto-payprogramma "${p.title ?? ''}" is ingediend door ${p.email ?? 'een medewerker'} en wacht tot een tweede medewerker het goedkeurt of afwijst.`,
      `Er is nog niet beslist. Zonder beslissing verloopt de indiening op ${p.date}.`,
    ],
    action: 'Programma bekijken',
  },
  'team-invite': {
    subject: 'Je bent uitgenodigd voor een team op AXEL Drive',
    lines: (p) => [
      `${p.email ?? 'Een teambeheerder'} nodigt je uit voor het team "${p.title ?? ''}" op AXEL Drive.`,
      'Accepteer om de mappen van het team te delen. Heb je nog geen account, dan maak je er onderweg een aan.',
    ],
    action: 'Uitnodiging accepteren',
  },
};

const catalogues: Record<string, Catalogue> = { en_us: en, es_mx: es, pt_br: pt, nl };

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The product's name as every mail spells it, in every language. */
export const PRODUCT_NAME = 'AXEL Drive';

/** Renders a mail in the recipient's locale (English when the locale is unknown). */
/** A template's subject line: it holds no parameter, so it survives the erasure of a mail's links. */
export const mailSubject = (template: MailTemplate, locale: string): string => (catalogues[locale] ?? en)[template].subject;

export const renderMail = (template: MailTemplate, locale: string, params: MailParams) => {
  const copy = (catalogues[locale] ?? en)[template];
  const lines = copy.lines(params);
  const text = [...lines, ...(params.link ? ['', `${copy.action ?? ''}: ${params.link}`] : []), '', `-- ${PRODUCT_NAME}`].join('\n');
  const html = `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}${
    params.link
      ? `<p><a href="${escapeHtml(params.link)}" style="background:#1565c0;color:#fff;padding:10px 16px;border-radius:4px;text-decoration:none">${escapeHtml(copy.action ?? params.link)}</a></p><p style="color:#666;font-size:12px">${escapeHtml(params.link)}</p>`
      : ''
  }<p style="color:#666;font-size:12px">${PRODUCT_NAME}</p></body></html>`;
  return { subject: copy.subject, text, html };
};
