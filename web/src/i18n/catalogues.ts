import en_us from './locales/en_us.json';
import es_mx from './locales/es_mx.json';
import nl from './locales/nl.json';
import pt_br from './locales/pt_br.json';
import type { Locale } from './language';

export type Tree = { [key: string]: string | Tree };

/**
 * Each feature may keep its texts beside it, in `features/<feature>/locales/<locale>.json`, under
 * top-level keys of its own; they join the app's catalogues here. A key defined twice is a mistake
 * the catalogue refuses, so one feature can never silently overwrite another's text.
 */
const featureFiles = import.meta.glob<Tree>('../features/*/locales/*.json', { eager: true, import: 'default' });

const merge = (into: Tree, from: Tree, path: string[]): Tree => {
  for (const [key, value] of Object.entries(from)) {
    const existing = into[key];
    if (existing === undefined) into[key] = value;
    else if (typeof existing === 'object' && typeof value === 'object') merge(existing, value, [...path, key]);
    else throw new Error(`Translation key ${[...path, key].join('.')} is defined twice`);
  }
  return into;
};

const build = (locale: Locale, base: Tree): Tree => {
  const catalogue = structuredClone(base);
  for (const [file, tree] of Object.entries(featureFiles)) {
    if (file.endsWith(`/${locale}.json`)) merge(catalogue, tree, []);
  }
  return catalogue;
};

export const catalogues: Record<Locale, Tree> = {
  en_us: build('en_us', en_us as Tree),
  es_mx: build('es_mx', es_mx as Tree),
  pt_br: build('pt_br', pt_br as Tree),
  nl: build('nl', nl as Tree),
};
