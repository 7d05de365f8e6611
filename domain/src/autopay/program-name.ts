import { z } from 'zod';
import { assertNever, type Command, type Decider } from '../shared/decider';
import { DomainError } from '../shared/errors';
import { defineEvent, type EventOf } from '../shared/events';
import { AutoPayErrors } from './autopay.errors';

/**
 * A program name's reservation stream, named by a keyed hash of the name's key (`programNameKey`):
 * the name itself never appears in a stream name. Not under `autopay-`, which names programs.
 */
export const programNameStreamName = (nameKeyedHash: string): string => `autopay_name-${nameKeyedHash}`;

/** The form of a name that uniqueness is decided on: trimmed, case-insensitive (as the read model's `name_key`). */
export const programNameKey = (name: string): string => name.trim().toLowerCase();

export const AutoPayNameReserved = defineEvent('AutoPayNameReserved', z.object({ programId: z.string(), at: z.string() }));
export const AutoPayNameReleased = defineEvent('AutoPayNameReleased', z.object({ programId: z.string() }));
export const programNameEventDefinitions = [AutoPayNameReserved, AutoPayNameReleased];
export type ProgramNameEvent = EventOf<typeof AutoPayNameReserved> | EventOf<typeof AutoPayNameReleased>;

export type ProgramNameCommand =
  /** `abandonedHolderId`: the holder the caller found without this name (a create or rename that never finished). */
  Command<'ReserveProgramName', { programId: string; abandonedHolderId?: string }> | Command<'ReleaseProgramName', { programId: string }>;

export type ProgramNameState = { readonly holder: null } | { readonly holder: string; readonly since: number };

/**
 * A create or rename reserves the name first and records it on the program right after, so a
 * younger reservation may be one still in flight: only an older one can be taken over.
 */
export const ABANDONED_NAME_AFTER_MS = 2 * 60_000;

const decide = (command: ProgramNameCommand, state: ProgramNameState): ProgramNameEvent[] => {
  const { programId } = command.data;
  switch (command.type) {
    case 'ReserveProgramName': {
      const reserved: ProgramNameEvent = { type: 'AutoPayNameReserved', data: { programId, at: command.metadata.now.toISOString() } };
      if (state.holder === null) return [reserved];
      if (state.holder === programId) return [];
      const takeOver = command.data.abandonedHolderId === state.holder && command.metadata.now.getTime() - state.since >= ABANDONED_NAME_AFTER_MS;
      if (!takeOver) throw new DomainError(AutoPayErrors.duplicateName);
      // one append at the stream's revision: of two racing take-overs only one wins
      return [{ type: 'AutoPayNameReleased', data: { programId: state.holder } }, reserved];
    }
    case 'ReleaseProgramName':
      return state.holder === programId ? [{ type: 'AutoPayNameReleased', data: { programId } }] : [];
    default:
      return assertNever(command);
  }
};

const evolve = (state: ProgramNameState, event: ProgramNameEvent): ProgramNameState => {
  switch (event.type) {
    case 'AutoPayNameReserved':
      return { holder: event.data.programId, since: Date.parse(event.data.at) };
    case 'AutoPayNameReleased':
      return state.holder === event.data.programId ? { holder: null } : state;
    default:
      return state;
  }
};

/** A program name held by at most one program at a time. */
export const programNameDecider: Decider<ProgramNameCommand, ProgramNameEvent, ProgramNameState> = { decide, evolve, initialState: () => ({ holder: null }) };
