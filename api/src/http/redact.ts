/**
 * One-time links carry their secret in the URL (`/reset-password/<token>`, `/reset2fa/?token=`),
 * so a URL is never logged as it came: the path keeps its shape, the secrets become `[redacted]`.
 */
export const REDACTED = '[redacted]';

/** Path segments after which every further segment is a secret (API and web link routes). */
const TOKEN_ROUTE_PREFIXES = new Set([
  'reset-password',
  'email-confirmation',
  'email-confirmations',
  'change-email-confirmations',
  'password-resets',
  'two-factor-resets',
  'reset2fa',
]);
/** Plain words that follow a token prefix as sub-routes, not as secrets. */
const NOT_SECRET_AFTER_PREFIX = new Set(['resend']);
/** Query keys whose values are always secret. */
const SECRET_QUERY_KEYS = /^(token|code|password|secret|key|signature|sig|otp|session|auth|access_token|refresh_token|archiveTaskId|taskId|downloadId)$/i;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const STATIC_FILE = /^[\w.-]+\.(js|mjs|cjs|ts|css|map|html|json|svg|png|jpe?g|gif|webp|ico|woff2?|ttf|txt|br|gz)(:\d+){0,2}$/i;

/** Long random-looking text: what a token, key or signature looks like, not a word or an id. */
export const looksLikeToken = (text: string): boolean => {
  if (text.length < 20 || UUID.test(text) || STATIC_FILE.test(text)) return false;
  if (!/^[\w.~%+=:-]+$/.test(text)) return false;
  return /\d/.test(text) && /[a-z]/i.test(text);
};

const redactQuery = (query: string) =>
  query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return looksLikeToken(pair) ? REDACTED : pair;
      const key = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      return SECRET_QUERY_KEYS.test(key) || looksLikeToken(value) ? `${key}=${REDACTED}` : pair;
    })
    .join('&');

/** A path as raw text (no decoding: a malformed escape must not make a secret survive). */
const redactPath = (path: string) => {
  let afterPrefix = false;
  return path
    .split('/')
    .map((segment) => {
      if (afterPrefix && segment && !NOT_SECRET_AFTER_PREFIX.has(segment)) return REDACTED;
      if (TOKEN_ROUTE_PREFIXES.has(segment.toLowerCase())) afterPrefix = true;
      return looksLikeToken(segment) ? REDACTED : segment;
    })
    .join('/');
};

/** A request target (origin-form or absolute-form) fit for a log line. */
export const redactUrl = (url: string): string => {
  let target = url;
  let origin = '';
  const absolute = /^[a-z][a-z\d+.-]*:\/\/[^/?#]*/i.exec(target);
  if (absolute) {
    origin = absolute[0];
    target = target.slice(origin.length);
  }
  const hash = target.indexOf('#');
  if (hash >= 0) target = target.slice(0, hash);
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  const query = q < 0 ? null : target.slice(q + 1);
  return `${origin}${redactPath(path)}${query === null ? '' : `?${redactQuery(query)}`}`;
};

/**
 * The URL to log for a routed request: the route's pattern (`/api/password-resets/:token`) with
 * the query redacted; for an unrouted one (404, SPA fallback) the redacted URL.
 */
export const loggableUrl = (url: string, routePattern: string | undefined): string => {
  if (!routePattern) return redactUrl(url);
  const q = url.indexOf('?');
  return q < 0 ? routePattern : `${routePattern}?${redactQuery(url.slice(q + 1))}`;
};

/** Free text (a log message, an error's message or stack) with any URL-borne secret removed. */
export const redactText = (text: string): string =>
  text
    .replace(/(?:[a-z][a-z\d+.-]*:\/\/[^\s'"<>]*|\/[^\s'"<>]*)/gi, (match) => redactUrl(match))
    .replace(/[\w.~%+=:-]{20,}/g, (word) => (looksLikeToken(word) ? REDACTED : word));
