import type { UserEvent } from '@axel/domain/accounts/accounts.events';
import type { WalletEvent } from '@axel/domain/wallet/wallet';
import { defineProjection } from '../runner/projection';

type Source = WalletEvent | UserEvent;

/** Which user holds which custodial addresses: for staff dashboards and payouts by e-mail. */
export const walletAddressesProjection = defineProjection<'wallet_addresses', Source>({
  name: 'wallet_addresses',
  handles: ['WalletAddressesCreated', 'AccountPurged'],
  tables: {
    wallet_addresses: (t) => `create table "${t}" (
      user_id text primary key,
      primary_address text not null unique,
      fuel_address text not null unique,
      created_at timestamptz not null
    );`,
  },
  async apply(tx, events, t) {
    const T = `"${t.wallet_addresses}"`;
    for (const e of events) {
      if (e.type === 'WalletAddressesCreated') {
        await tx.query(`insert into ${T} (user_id, primary_address, fuel_address, created_at) values ($1, $2, $3, $4) on conflict (user_id) do nothing`, [
          e.data.userId,
          e.data.primary,
          e.data.fuel,
          e.recordedAt,
        ]);
      } else if (e.type === 'AccountPurged') {
        await tx.query(`delete from ${T} where user_id = $1`, [e.streamName.slice('user-'.length)]);
      }
    }
  },
});
