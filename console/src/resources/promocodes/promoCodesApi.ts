import { httpClient } from '../../data/dataProvider';
import { ADMIN_API } from '../../data/contractUrl';

export const PROMOCODES = 'promocodes';
/** Page size of the specification for promo codes (§9). */
export const PROMOCODES_PER_PAGE = 50;

const item = (id: unknown) => `${ADMIN_API}/${PROMOCODES}/${encodeURIComponent(String(id))}`;

/** The staff calls beside ra-data-simple-rest's CRUD. */
export const promoCodesApi = {
  /** Switches a code between active and inactive; answers the updated code. */
  toggle: async (id: unknown) => {
    const { json } = await httpClient(`${item(id)}/toggle`, { method: 'POST' });
    return json as Record<string, unknown>;
  },
};
