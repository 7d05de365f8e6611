import { dateWriter, type DateWriter } from '../../i18n/dates';

/** How the activity log reads: each event in words, its device in words, its actor by e-mail. */

export interface ActivityEntry {
  readonly id: string;
  readonly event: string;
  readonly client: string | null;
  readonly ip: string | null;
  readonly userAgent: string | null;
  readonly actorId: string | null;
  readonly actorKind: string;
  readonly actorEmail?: string | null;
  readonly data: Record<string, unknown>;
  readonly timestamp: string;
}

/** A translation function shaped like react-admin's `translate`. */
export type Translate = (key: string, options?: Record<string, unknown>) => string;

const BROWSERS: readonly [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\b(OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(Firefox|FxiOS)\//, 'Firefox'],
  [/\b(Chrome|CriOS|Chromium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS: readonly [RegExp, string][] = [
  [/\bWindows (NT|Phone)\b/, 'Windows'],
  [/\b(iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

const first = (table: readonly [RegExp, string][], text: string) => table.find(([pattern]) => pattern.test(text))?.[1] ?? null;

/** The browser and system a user agent names, or nulls where it names none this knows. */
export const parseUserAgent = (userAgent: string | null | undefined): { browser: string | null; system: string | null } => {
  const ua = userAgent ?? '';
  return { browser: first(BROWSERS, ua), system: first(SYSTEMS, ua) };
};

/** "Firefox on Windows", "Safari", "an unknown browser". */
export const describeDevice = (userAgent: string | null | undefined, translate: Translate): string => {
  const { browser, system } = parseUserAgent(userAgent);
  if (browser && system) return translate('resources.activity.device.browserOnSystem', { browser, system });
  if (browser) return browser;
  if (system) return translate('resources.activity.device.browserOnSystem', { browser: translate('resources.activity.device.aBrowser'), system });
  return translate('resources.activity.device.unknown');
};

/** "SomeNewEvent" → "Some new event": events this console does not know yet still read as words. */
export const humanizeEventType = (type: string): string => {
  const words = type.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const str = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

/** The sentence's key variant and arguments, from the event's own data. */
const eventWords = (entry: ActivityEntry, translate: Translate, dates: DateWriter): { key: string; args: Record<string, unknown> } => {
  const when = (value: unknown): string => (typeof value === 'string' ? dates.dateTime(value) : '');
  const d = entry.data ?? {};
  const key = (variant?: string) => `resources.activity.events.${entry.event}${variant ? `_${variant}` : ''}`;
  switch (entry.event) {
    case 'SignInSucceeded':
      return { key: key(), args: { device: describeDevice(str(d.userAgent) || entry.userAgent, translate) } };
    case 'SignInFailed':
      return {
        key: key(d.reason === 'two_factor' ? 'code' : 'password'),
        args: { count: Number(d.failedAttempts) || 1, device: describeDevice(str(d.userAgent) || entry.userAgent, translate) },
      };
    case 'UserLocked':
      return { key: key(), args: { until: when(d.until) } };
    case 'UserBlocked':
      return d.until ? { key: key('until'), args: { until: when(d.until) } } : { key: key(), args: {} };
    case 'PasswordChanged':
      return { key: key(d.via === 'reset' ? 'reset' : undefined), args: {} };
    case 'TwoFactorEnabled':
    case 'TwoFactorChallengeIssued':
      return { key: key(), args: { method: translate(`resources.activity.methods.${str(d.method)}`, { _: str(d.method) }) } };
    case 'TwoFactorDisabled':
      return { key: key(d.via === 'reset' ? 'reset' : undefined), args: {} };
    case 'EmailChangeRequested':
      return { key: key(), args: { to: str(d.newEmail) } };
    case 'EmailChanged':
      return { key: key(), args: { from: str(d.oldEmail), to: str(d.newEmail) } };
    case 'RoleChanged':
      return {
        key: key(),
        args: {
          from: translate(`resources.users.roles.${str(d.from)}`, { _: str(d.from) }),
          to: translate(`resources.users.roles.${str(d.to)}`, { _: str(d.to) }),
        },
      };
    case 'PlanChangedByStaff':
      return { key: key(), args: { from: str(d.previousPlan), to: str(d.plan) } };
    case 'ProfileUpdated':
      return { key: key(), args: { fields: Object.keys((d.changes as object | undefined) ?? {}).join(', ') } };
    case 'UserSuspended':
      return d.reason ? { key: key('reason'), args: { reason: str(d.reason) } } : { key: key(), args: {} };
    default:
      return { key: key(), args: {} };
  }
};

/** Who acted, when it was not the user themselves: a staff e-mail, a process, the system. */
export const describeActor = (entry: ActivityEntry, userId: string | undefined, translate: Translate): string | null => {
  if (entry.actorKind === 'process') {
    const type = str(entry.actorId).split(':')[0] || '';
    return translate('resources.activity.actors.process', { process: translate(`resources.activity.processes.${type}`, { _: type }) });
  }
  if (entry.actorKind === 'system') return translate('resources.activity.actors.system');
  if (entry.actorKind === 'anonymous' || !entry.actorId) return null;
  if (userId !== undefined && entry.actorId === userId) return null;
  return entry.actorEmail || entry.actorId;
};

/** "Signed in from Firefox on Windows", "Password changed", "Suspended by admin@x.com". */
export const describeActivity = (entry: ActivityEntry, userId: string | undefined, translate: Translate, dates: DateWriter = dateWriter('en')): string => {
  const { key, args } = eventWords(entry, translate, dates);
  const words = translate(key, { ...args, _: translate(`resources.activity.events.${entry.event}`, { ...args, _: humanizeEventType(entry.event) }) });
  const actor = describeActor(entry, userId, translate);
  return actor ? translate('resources.activity.byActor', { words, actor }) : words;
};
