import type { ShareKind } from './sharing.events';

/** The owner of a share as the accounts know them now (both null once purged). */
export interface ShareOwnerFacts {
  /** First and last name from the profile, else the user name. */
  readonly name: string | null;
  readonly email: string | null;
}

/** Who a share came from, as the people it was given to see it. */
export interface ShareSender {
  readonly name: string | null;
  readonly email: string | null;
}

/**
 * Who a share's visitors are told it came from. Anyone let in learns the owner's name (a public
 * link travels anywhere: never the e-mail); a private share's recipients also learn the owner's
 * e-mail, which its mail already came from (spec §3: private shares are visible only to the
 * recipient e-mail).
 */
export const shareSenderFor = (kind: ShareKind, owner: ShareOwnerFacts | null | undefined): ShareSender => ({
  name: owner?.name ?? null,
  email: kind === 'private' ? (owner?.email ?? null) : null,
});
