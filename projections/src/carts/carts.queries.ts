import type { Queryable } from '@axel/platform';
import type { CartRow } from './carts.projection';

export const findCart = async (db: Queryable, cartId: string): Promise<CartRow | undefined> =>
  (await db.query<CartRow>('select * from carts where id = $1', [cartId])).rows[0];

/** The id of the cart an owner's share was made from. */
export const findCartIdOfShare = async (db: Queryable, shareId: string, ownerId: string): Promise<string | undefined> =>
  (await db.query<{ id: string }>('select id from carts where share_id = $1 and owner_id = $2', [shareId, ownerId])).rows[0]?.id;
