/** A share's public handle: 22 base64url characters. */
const LINK_ID = /^[A-Za-z0-9_-]{22}$/;

/**
 * The link id of what a user pastes: a share URL (`…/shares/<linkId>`, `…/private-share/<linkId>`,
 * with anything after it) or the bare link id. Null when it is neither.
 */
export const linkIdFrom = (pasted: string): string | null => {
  const text = pasted.trim();
  if (LINK_ID.test(text)) return text;
  let path: string;
  try {
    path = new URL(text).pathname;
  } catch {
    path = text;
  }
  const match = /(?:^|\/)(?:shares|private-share)\/([A-Za-z0-9_-]{22})(?:[/?#]|$)/.exec(path);
  return match ? match[1]! : null;
};
