import {
  autopayDecider,
  billingDecider,
  cartDecider,
  bookmarksDecider,
  contactsDecider,
  notificationsDecider,
  promoCodeDecider,
  secureFetchCounterDecider,
  secureFetchDecider,
  shareAccessDecider,
  shareCounterDecider,
  shareDecider,
  storageDecider,
  userDecider,
  walletDecider,
  type DomainEvent,
} from '@axel/domain';

/** What time travel needs of an aggregate: the domain's own fold. */
export interface Fold {
  initialState(): unknown;
  evolve(state: unknown, event: DomainEvent): unknown;
}

export interface AggregateKind {
  /** How the console names it: `user`, `storage`, `promocode`... */
  readonly kind: string;
  /** Its streams are `<prefix>-<id>`. */
  readonly prefix: string;
  readonly fold: Fold;
}

const kind = <S, E extends DomainEvent>(name: string, prefix: string, decider: { initialState(): S; evolve(state: S, event: E): S }): AggregateKind => ({
  kind: name,
  prefix,
  fold: decider as unknown as Fold,
});

/**
 * Stream prefix to the aggregate's decider. Time travel replays a stream with the same `evolve`
 * the commands use, so a past state is exactly what the domain saw then. A new aggregate joins
 * with one line here.
 */
export const AGGREGATES: readonly AggregateKind[] = [
  kind('user', 'user', userDecider),
  kind('storage', 'storage', storageDecider),
  kind('promocode', 'promocode', promoCodeDecider),
  kind('program', 'autopay', autopayDecider),
  kind('billing', 'billing', billingDecider),
  kind('wallet', 'wallet', walletDecider),
  kind('contacts', 'contacts', contactsDecider),
  kind('notifications', 'notifications', notificationsDecider),
  kind('bookmarks', 'bookmarks', bookmarksDecider),
  kind('share', 'share', shareDecider),
  kind('share-access', 'share-access', shareAccessDecider),
  kind('share-counter', 'share-counter', shareCounterDecider),
  kind('cart', 'cart', cartDecider),
  kind('secure-fetch', 'secure-fetch', secureFetchDecider),
  kind('secure-fetch-counter', 'secure-fetch-counter', secureFetchCounterDecider),
];

const byLongestPrefix = [...AGGREGATES].sort((a, b) => b.prefix.length - a.prefix.length);

/** The aggregate a stream belongs to (`share-access-1` is share-access, not share), or undefined. */
export const aggregateOf = (stream: string): AggregateKind | undefined =>
  byLongestPrefix.find((a) => stream.startsWith(`${a.prefix}-`) && stream.length > a.prefix.length + 1);

/** A state as JSON: sets become sorted arrays, maps objects, dates instants. */
export const toJson = (value: unknown): unknown => {
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Set) return [...value].map(toJson).sort();
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [String(k), toJson(v)]));
  if (Array.isArray(value)) return value.map(toJson);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJson(v)]));
  return value;
};

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** The paths where two JSON states differ, down to the leaves (`profile.firstName`); arrays compare whole. */
export const differences = (a: unknown, b: unknown, path = ''): string[] => {
  if (isRecord(a) && isRecord(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return keys.flatMap((k) => differences(a[k], b[k], path ? `${path}.${k}` : k));
  }
  return JSON.stringify(a) === JSON.stringify(b) ? [] : [path];
};
