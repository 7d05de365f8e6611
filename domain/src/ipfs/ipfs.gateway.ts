/**
 * A preferred IPFS gateway (spec §5: its format is checked): an https origin, optionally with a path,
 * that public links are built on as `<gateway>/ipfs/<cid>` (path gateway) or, when it holds the
 * `{cid}` placeholder, with the CID put there (subdomain gateway, `https://{cid}.ipfs.dweb.link`).
 */
const HOST = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
export const IPFS_GATEWAY_MAX = 200;

/** The gateway as kept (no trailing slash), or null when the text is not a gateway address. */
export const normaliseIpfsGateway = (raw: string): string | null => {
  const text = raw.trim();
  if (!text || text.length > IPFS_GATEWAY_MAX) return null;
  const placeholder = text.includes('{cid}');
  let url: URL;
  try {
    url = new URL(text.replace('{cid}', 'cidplaceholder'));
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.username || url.password || url.search || url.hash || url.port) return null;
  if (!HOST.test(url.hostname)) return null;
  if (placeholder && (text.split('{cid}').length !== 2 || !url.hostname.startsWith('cidplaceholder.'))) return null;
  if (/\/ipfs\/?$/.test(url.pathname)) url.pathname = url.pathname.replace(/\/ipfs\/?$/, '');
  const kept = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  return placeholder ? kept.replace('cidplaceholder', '{cid}') : kept;
};

/** The public link of a CID through a gateway (a kept one, see `normaliseIpfsGateway`). */
export const ipfsGatewayLink = (gateway: string, cid: string): string => (gateway.includes('{cid}') ? gateway.replace('{cid}', cid) : `${gateway}/ipfs/${cid}`);
