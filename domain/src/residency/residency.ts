import { z } from 'zod';
import { assertNever, type Command, type Decider } from '../shared/decider';
import { defineErrors, DomainError } from '../shared/errors';
import { defineEvent, type EventOf } from '../shared/events';

/** Regions an account can choose (spec §9): automatic, US, EU, Asia, Africa (African Union). */
export const DATA_REGIONS = ['automatic', 'us', 'eu', 'asia', 'africa'] as const;
export type DataRegion = (typeof DATA_REGIONS)[number];
/** Regions bytes are actually kept in: `automatic` resolves to one of them. */
export const STORAGE_REGIONS = ['us', 'eu', 'asia', 'africa'] as const;
export type StorageRegion = (typeof STORAGE_REGIONS)[number];

export const isStorageRegion = (value: string): value is StorageRegion => (STORAGE_REGIONS as readonly string[]).includes(value);

/** Where `automatic` keeps an account's bytes: the deployment's home region. */
export const AUTOMATIC_REGION: StorageRegion = 'us';

/** Where a new upload's chunks go: the chosen region, or for `automatic` the deployment's default region. */
export const resolveRegion = (preference: DataRegion, automatic: StorageRegion): StorageRegion => (preference === 'automatic' ? automatic : preference);

export const ResidencyErrors = defineErrors({
  invalidRegion: { code: 'REGION_INVALID', status: 400, message: 'Choose automatic, US, EU, Asia or Africa' },
});

/** One stream per account: its region preference, which applies to uploads made after it changes. */
export const residencyStreamName = (userId: string) => `residency-${userId}`;

export const RegionChosen = defineEvent('RegionChosen', z.object({ region: z.enum(DATA_REGIONS), at: z.string() }));
export const residencyEventDefinitions = [RegionChosen];
export type ResidencyEvent = EventOf<typeof RegionChosen>;

export type ResidencyCommand = Command<'ChooseRegion', { region: string }>;

export interface ResidencyState {
  readonly region: DataRegion;
  readonly chosenAt: string | null;
}

const decide = (command: ResidencyCommand, state: ResidencyState): ResidencyEvent[] => {
  switch (command.type) {
    case 'ChooseRegion': {
      const region = command.data.region.toLowerCase();
      if (!(DATA_REGIONS as readonly string[]).includes(region)) throw new DomainError(ResidencyErrors.invalidRegion);
      if (region === state.region) return [];
      return [{ type: 'RegionChosen', data: { region: region as DataRegion, at: command.metadata.now.toISOString() } }];
    }
    default:
      return assertNever(command.type);
  }
};

export const residencyDecider: Decider<ResidencyCommand, ResidencyEvent, ResidencyState> = {
  initialState: () => ({ region: 'automatic', chosenAt: null }),
  evolve: (state, event) => (event.type === 'RegionChosen' ? { region: event.data.region, chosenAt: event.data.at } : state),
  decide,
};
