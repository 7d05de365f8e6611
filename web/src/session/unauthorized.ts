/** How long the inactivity message stays quiet after it was shown. */
export const INACTIVITY_NOTICE_SUPPRESSION_MS = 5_000;

export interface UnauthorizedFacts {
  code: string;
  now: number;
  /** End of the last successful call, null if none yet. */
  lastOperationAt: number | null;
  /** The signed-in user's inactivity timeout in seconds, null when no user was known. */
  sessionTimeoutSeconds: number | null;
  /** When the inactivity message was last shown, null if never. */
  lastInactivityNoticeAt: number | null;
  /** Whether a user was signed in when the 401 arrived. */
  hadUser: boolean;
}

export type UnauthorizedNotice = 'inactivity' | 'unauthorized' | 'none';

/**
 * The 401 rule of the error catalogue: the user info is always cleared; the message is the
 * inactivity one when the time since the last operation exceeds the user's timeout (or the server
 * says SESSION_INACTIVE), else "Unauthorized". The inactivity message is suppressed for 5 s after
 * it was shown. A visitor who was never signed in gets no message.
 */
export const decideUnauthorizedNotice = (f: UnauthorizedFacts): UnauthorizedNotice => {
  const idleTooLong = f.lastOperationAt !== null && f.sessionTimeoutSeconds !== null && f.now - f.lastOperationAt > f.sessionTimeoutSeconds * 1000;
  const inactive = f.code === 'SESSION_INACTIVE' || (f.hadUser && idleTooLong);
  if (inactive) {
    const recentlyShown = f.lastInactivityNoticeAt !== null && f.now - f.lastInactivityNoticeAt < INACTIVITY_NOTICE_SUPPRESSION_MS;
    return recentlyShown ? 'none' : 'inactivity';
  }
  return f.hadUser ? 'unauthorized' : 'none';
};
