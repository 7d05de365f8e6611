import type { DeviceDescription } from './user-agent';

/**
 * Security notices are stored as a kind and its parameters and put into words when they are read,
 * in the reader's language at that moment: a user who switches language sees every notice in it.
 */
export const NOTICE_KINDS = [
  'sign_in',
  'password_changed',
  'email_changed',
  'two_factor_enabled',
  'two_factor_disabled',
  'account_locked',
  'share_opened',
  'secure_fetch_files_arrived',
  'share_expiring',
] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

export interface NoticeParams {
  readonly browser?: string | null;
  readonly system?: string | null;
  readonly email?: string | null;
  /** How many files arrived (Secure Fetch). */
  readonly count?: number | null;
  /** Days until a share expires. */
  readonly days?: number | null;
}

export const NOTICE_LOCALES = ['en_us', 'es_mx', 'pt_br', 'nl'] as const;
type NoticeLocale = (typeof NOTICE_LOCALES)[number];

interface Words {
  readonly titles: Readonly<Record<NoticeKind, string>>;
  readonly bodies: Readonly<Record<NoticeKind, (p: NoticeParams, device: string | null) => string>>;
  /** "Firefox on Windows", "a browser on Android", "Safari". */
  readonly device: (d: DeviceDescription) => string | null;
}

const deviceWith = (on: string, someBrowser: string) => (d: DeviceDescription) =>
  d.browser && d.system ? `${d.browser} ${on} ${d.system}` : d.system ? `${someBrowser} ${on} ${d.system}` : d.browser;

const WORDS: Readonly<Record<NoticeLocale, Words>> = {
  en_us: {
    titles: {
      sign_in: 'New sign-in',
      password_changed: 'Password changed',
      email_changed: 'E-mail changed',
      two_factor_enabled: 'Two-factor authentication on',
      two_factor_disabled: 'Two-factor authentication off',
      account_locked: 'Sign-in locked',
      share_opened: 'Private share opened',
      share_expiring: 'Share expires soon',
      secure_fetch_files_arrived: 'Files arrived',
    },
    bodies: {
      sign_in: (_, device) => (device ? `A new sign-in to your account from ${device}.` : 'A new sign-in to your account.'),
      password_changed: () => 'The password of your account was changed.',
      email_changed: (p) => `Your sign-in e-mail is now ${p.email ?? ''}.`,
      two_factor_enabled: () => 'Two-factor authentication was turned on.',
      two_factor_disabled: () => 'Two-factor authentication was turned off.',
      account_locked: () => 'Too many failed sign-ins: sign-in was locked for a while.',
      share_opened: (p) => `${p.email ?? 'The recipient'} opened your private share for the first time.`,
      share_expiring: (p) => `One of your shares expires in ${p.days ?? '?'} day(s). Edit it to keep it available longer.`,
      secure_fetch_files_arrived: (p) => `${p.count ?? 0} file(s) arrived through your Secure Fetch link. Pay and pin them within 2 hours to keep them.`,
    },
    device: deviceWith('on', 'a browser'),
  },
  es_mx: {
    titles: {
      sign_in: 'Nuevo inicio de sesión',
      password_changed: 'Contraseña cambiada',
      email_changed: 'Correo cambiado',
      two_factor_enabled: 'Autenticación de dos factores activada',
      two_factor_disabled: 'Autenticación de dos factores desactivada',
      account_locked: 'Inicio de sesión bloqueado',
      share_opened: 'Recurso compartido privado abierto',
      share_expiring: 'Tu recurso compartido caduca pronto',
      secure_fetch_files_arrived: 'Llegaron archivos',
    },
    bodies: {
      sign_in: (_, device) => (device ? `Nuevo inicio de sesión en tu cuenta desde ${device}.` : 'Nuevo inicio de sesión en tu cuenta.'),
      password_changed: () => 'Se cambió la contraseña de tu cuenta.',
      email_changed: (p) => `Tu correo de inicio de sesión ahora es ${p.email ?? ''}.`,
      two_factor_enabled: () => 'Se activó la autenticación de dos factores.',
      two_factor_disabled: () => 'Se desactivó la autenticación de dos factores.',
      account_locked: () => 'Demasiados intentos fallidos: el inicio de sesión se bloqueó por un tiempo.',
      share_opened: (p) => `${p.email ?? 'El destinatario'} abrió por primera vez tu recurso compartido privado.`,
      share_expiring: (p) => `Uno de tus recursos compartidos caduca en ${p.days ?? '?'} día(s). Edítalo para mantenerlo disponible más tiempo.`,
      secure_fetch_files_arrived: (p) => `Llegaron ${p.count ?? 0} archivo(s) por tu enlace de Secure Fetch. Paga y fíjalos en 2 horas para conservarlos.`,
    },
    device: deviceWith('en', 'un navegador'),
  },
  pt_br: {
    titles: {
      sign_in: 'Novo acesso',
      password_changed: 'Senha alterada',
      email_changed: 'E-mail alterado',
      two_factor_enabled: 'Autenticação de dois fatores ativada',
      two_factor_disabled: 'Autenticação de dois fatores desativada',
      account_locked: 'Acesso bloqueado',
      share_opened: 'Compartilhamento privado aberto',
      share_expiring: 'Seu compartilhamento expira em breve',
      secure_fetch_files_arrived: 'Arquivos recebidos',
    },
    bodies: {
      sign_in: (_, device) => (device ? `Um novo acesso à sua conta (${device}).` : 'Um novo acesso à sua conta.'),
      password_changed: () => 'A senha da sua conta foi alterada.',
      email_changed: (p) => `Seu e-mail de acesso agora é ${p.email ?? ''}.`,
      two_factor_enabled: () => 'A autenticação de dois fatores foi ativada.',
      two_factor_disabled: () => 'A autenticação de dois fatores foi desativada.',
      account_locked: () => 'Muitas tentativas de acesso com falha: o acesso foi bloqueado por um tempo.',
      share_opened: (p) => `${p.email ?? 'O destinatário'} abriu seu compartilhamento privado pela primeira vez.`,
      share_expiring: (p) => `Um dos seus compartilhamentos expira em ${p.days ?? '?'} dia(s). Edite-o para mantê-lo disponível por mais tempo.`,
      secure_fetch_files_arrived: (p) => `${p.count ?? 0} arquivo(s) chegaram pelo seu link de Secure Fetch. Pague e fixe-os em 2 horas para mantê-los.`,
    },
    device: deviceWith('no', 'um navegador'),
  },
  nl: {
    titles: {
      sign_in: 'Nieuwe aanmelding',
      password_changed: 'Wachtwoord gewijzigd',
      email_changed: 'E-mailadres gewijzigd',
      two_factor_enabled: 'Tweestapsverificatie aan',
      two_factor_disabled: 'Tweestapsverificatie uit',
      account_locked: 'Aanmelden geblokkeerd',
      share_opened: 'Privédeling geopend',
      share_expiring: 'Je deling verloopt binnenkort',
      secure_fetch_files_arrived: 'Bestanden ontvangen',
    },
    bodies: {
      sign_in: (_, device) => (device ? `Een nieuwe aanmelding op je account vanaf ${device}.` : 'Een nieuwe aanmelding op je account.'),
      password_changed: () => 'Het wachtwoord van je account is gewijzigd.',
      email_changed: (p) => `Je aanmeldadres is nu ${p.email ?? ''}.`,
      two_factor_enabled: () => 'Tweestapsverificatie is aangezet.',
      two_factor_disabled: () => 'Tweestapsverificatie is uitgezet.',
      account_locked: () => 'Te veel mislukte aanmeldingen: aanmelden is een tijdje geblokkeerd.',
      share_opened: (p) => `${p.email ?? 'De ontvanger'} heeft je privédeling voor het eerst geopend.`,
      share_expiring: (p) => `Een van je delingen verloopt over ${p.days ?? '?'} dag(en). Bewerk de deling om haar langer beschikbaar te houden.`,
      secure_fetch_files_arrived: (p) =>
        `Er zijn ${p.count ?? 0} bestand(en) binnengekomen via je Secure Fetch-link. Betaal en pin ze binnen 2 uur om ze te bewaren.`,
    },
    device: deviceWith('op', 'een browser'),
  },
};

const isKind = (kind: string): kind is NoticeKind => (NOTICE_KINDS as readonly string[]).includes(kind);

/** A notice in words, in the given language (English for a language the product does not have). */
export const renderNotice = (kind: string, params: NoticeParams, locale: string): { title: string; body: string } => {
  const words = WORDS[locale as NoticeLocale] ?? WORDS.en_us;
  if (!isKind(kind)) return { title: kind, body: '' };
  const device = words.device({ browser: params.browser ?? null, system: params.system ?? null });
  return { title: words.titles[kind], body: words.bodies[kind](params, device) };
};
