/*
 * File and folder names (spec §5): one pure validator shared by the API and the web app, so a name
 * the browser accepts is a name the server accepts.
 */

export const NAME_MAX_BYTES = 255;
/** Safari's own cap on names it can save. */
export const SAFARI_NAME_MAX_BYTES = 230;

export const FORBIDDEN_NAME_CHARACTERS = ['*', '\\', '/', '<', '>', '?', '"', '|', ':'] as const;

/** Names a desktop system cannot create, with or without an extension. */
export const FORBIDDEN_NAMES: readonly string[] = [
  'con',
  'prn',
  'aux',
  'nul',
  ...Array.from({ length: 9 }, (_, i) => `com${i + 1}`),
  ...Array.from({ length: 9 }, (_, i) => `lpt${i + 1}`),
  'desktop.ini',
  'thumbs.db',
];

/**
 * Whole words refused in names and titles (English, Spanish, Portuguese, Dutch). Matched as whole
 * words only, so ordinary words that merely contain one (Scunthorpe, "class") stay allowed.
 */
const PROFANITY: ReadonlySet<string> = new Set([
  'fuck',
  'fucking',
  'fucker',
  'motherfucker',
  'shit',
  'bullshit',
  'cunt',
  'bitch',
  'asshole',
  'bastard',
  'dickhead',
  'wanker',
  'puta',
  'puto',
  'pendejo',
  'cabron',
  'cabrón',
  'chingada',
  'verga',
  'mierda',
  'coño',
  'caralho',
  'porra',
  'merda',
  'foda',
  'fodase',
  'buceta',
  'viado',
  'arrombado',
  'kut',
  'klootzak',
  'kanker',
  'tering',
  'lul',
  'godverdomme',
  'hoer',
  'kutwijf',
]);

export type NameKind = 'file' | 'folder';

export type NameProblem =
  | 'empty'
  | 'forbiddenCharacters'
  | 'controlCharacters'
  | 'emoji'
  | 'tooLong'
  | 'leadingDot'
  | 'dotOnly'
  | 'dotInFolderName'
  | 'forbiddenName'
  | 'appFile'
  | 'profanity';

const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u{FE0F}|\u{20E3}/u;
const CONTROL = /\p{Cc}/u;
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;

/**
 * The spec's "byte" count of a name: a letter or digit counts 1, any other character above code
 * 255 counts 2, and every other character (punctuation, spaces, symbols of Latin-1) counts 4.
 */
export const nameByteLength = (name: string): number => {
  let total = 0;
  for (const ch of name) {
    const code = ch.codePointAt(0)!;
    if (code > 255) total += 2;
    else if (LETTER_OR_DIGIT.test(ch)) total += 1;
    else total += 4;
  }
  return total;
};

export const containsProfanity = (text: string): boolean =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .some((word) => word.length > 0 && PROFANITY.has(word));

/** The first rule a name breaks, or null when it may be used. */
export const nameProblem = (name: string, kind: NameKind, options: { maxBytes?: number } = {}): NameProblem | null => {
  if (name.trim().length === 0) return 'empty';
  if (/^\.+$/.test(name)) return 'dotOnly';
  if (FORBIDDEN_NAME_CHARACTERS.some((c) => name.includes(c))) return 'forbiddenCharacters';
  if (CONTROL.test(name)) return 'controlCharacters';
  if (EMOJI.test(name)) return 'emoji';
  if (nameByteLength(name) > (options.maxBytes ?? NAME_MAX_BYTES)) return 'tooLong';
  if (name.startsWith('.')) return 'leadingDot';
  if (kind === 'folder' && name.includes('.')) return 'dotInFolderName';
  const lower = name.toLowerCase();
  const stem = lower.includes('.') ? lower.slice(0, lower.indexOf('.')) : lower;
  if (FORBIDDEN_NAMES.includes(lower) || FORBIDDEN_NAMES.includes(stem.trimEnd())) return 'forbiddenName';
  if (kind === 'file' && lower.endsWith('.app')) return 'appFile';
  if (containsProfanity(name)) return 'profanity';
  return null;
};

export const isValidName = (name: string, kind: NameKind, options?: { maxBytes?: number }): boolean => nameProblem(name, kind, options) === null;

/** The key two names collide on: the same name in another case is the same name to most systems. */
export const nameKey = (name: string): string => name.normalize('NFC').toLowerCase();

const splitExtension = (name: string, kind: NameKind): { stem: string; ext: string } => {
  const dot = kind === 'file' ? name.lastIndexOf('.') : -1;
  return dot > 0 ? { stem: name.slice(0, dot), ext: name.slice(dot) } : { stem: name, ext: '' };
};

/**
 * A free name for `name` among `taken` (compared by {@link nameKey}): the name itself, else
 * `name (1).ext`, `name (2).ext`... An existing counter is continued rather than stacked.
 */
export const freeName = (name: string, kind: NameKind, taken: (key: string) => boolean): string => {
  if (!taken(nameKey(name))) return name;
  const { stem, ext } = splitExtension(name, kind);
  const base = stem.replace(/ \(\d+\)$/, '');
  for (let n = 1; ; n++) {
    const candidate = `${base} (${n})${ext}`;
    if (!taken(nameKey(candidate))) return candidate;
  }
};
