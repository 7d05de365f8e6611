import type { Command, Decider } from '../shared/decider';
import { DomainError } from '../shared/errors';
import { IpfsErrors } from './ipfs.errors';
import type { IpfsSettingsEvent } from './ipfs.events';
import { normaliseIpfsGateway } from './ipfs.gateway';

export interface IpfsSettings {
  /** The preferred gateway as kept, or null for the product's own. */
  readonly gateway: string | null;
}

export type IpfsSettingsCommand = Command<'ChooseIpfsGateway', { gateway: string | null }> | Command<'ForgetIpfsSettings', Record<string, never>>;

/** An account's IPFS settings: choosing a gateway checks its format (spec §5); choosing the same again changes nothing. */
export const ipfsSettingsDecider: Decider<IpfsSettingsCommand, IpfsSettingsEvent, IpfsSettings> = {
  initialState: () => ({ gateway: null }),
  decide(command, state) {
    if (command.type === 'ForgetIpfsSettings') return [{ type: 'IpfsSettingsForgotten', data: {} }];
    const raw = command.data.gateway;
    const gateway = raw === null || raw.trim() === '' ? null : normaliseIpfsGateway(raw);
    if (raw !== null && raw.trim() !== '' && gateway === null) throw new DomainError(IpfsErrors.invalidGateway, { field: 'gateway' });
    return gateway === state.gateway ? [] : [{ type: 'IpfsGatewayChosen', data: { gateway } }];
  },
  evolve: (state, event) => {
    if (event.type === 'IpfsGatewayChosen') return { gateway: event.data.gateway };
    if (event.type === 'IpfsSettingsForgotten') return { gateway: null };
    return state;
  },
};
