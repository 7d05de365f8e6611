import type { Command, Decider } from '../shared/decider';
import { CommonErrors, DomainError } from '../shared/errors';
import type { TeamInviteEvent } from './teams.events';
import { TeamErrors } from './teams.errors';

/** Spec §5: up to 10 addresses per invite. */
export const MAX_INVITE_EMAILS = 10;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
const MAX_EMAIL_LENGTH = 254;

/**
 * The addresses of an invite as typed: split by spaces, commas or semicolons, lower-cased, each
 * once; at most 10, and one invalid address refuses them all, naming the invalid ones (spec §5).
 */
export const parseInviteEmails = (text: string): string[] => {
  const parts = text
    .split(/[\s,;]+/)
    .map((p) => p.trim().toLowerCase())
    .filter(Boolean);
  const invalid = parts.filter((p) => p.length > MAX_EMAIL_LENGTH || !EMAIL.test(p));
  if (parts.length === 0 || invalid.length) throw new DomainError(TeamErrors.invalidEmails, { invalid });
  const emails = [...new Set(parts)];
  if (emails.length > MAX_INVITE_EMAILS) throw new DomainError(TeamErrors.tooManyEmails, { max: MAX_INVITE_EMAILS });
  return emails;
};

/**
 * An e-mail invite's own stream (`team-invite-<inviteId>`): the address and the hash of the link's
 * token, issued once, closed once (accepted or withdrawn), after which the address is forgotten.
 */
export type TeamInviteCommand =
  | Command<'IssueTeamInvite', { teamId: string; email: string; tokenHash: string }>
  | Command<'CloseTeamInvite', { outcome: 'accepted' | 'withdrawn' }>;

export type TeamInviteState = { readonly status: 'none' } | { readonly status: 'issued' | 'closed'; readonly teamId: string; readonly tokenHash: string };

const decideInvite = (command: TeamInviteCommand, state: TeamInviteState): TeamInviteEvent[] => {
  if (command.type === 'IssueTeamInvite') {
    if (state.status !== 'none') {
      if (state.tokenHash === command.data.tokenHash) return [];
      throw new DomainError(CommonErrors.conflict);
    }
    return [{ type: 'TeamInviteIssued', data: { ...command.data } }];
  }
  if (state.status === 'closed') return [];
  if (state.status === 'none') throw new DomainError(TeamErrors.inviteInvalid);
  return [{ type: 'TeamInviteClosed', data: { outcome: command.data.outcome } }];
};

const evolveInvite = (state: TeamInviteState, event: TeamInviteEvent): TeamInviteState => {
  if (event.type === 'TeamInviteIssued') return { status: 'issued', teamId: event.data.teamId, tokenHash: event.data.tokenHash };
  return state.status === 'none' ? state : { ...state, status: 'closed' };
};

export const teamInviteDecider: Decider<TeamInviteCommand, TeamInviteEvent, TeamInviteState> = {
  decide: decideInvite,
  evolve: evolveInvite,
  initialState: () => ({ status: 'none' }),
};
