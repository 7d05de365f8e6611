import { api } from '../../api/client';
import type { Share, ShareInput } from '../sharing/sharing.types';

export interface Cart {
  id: string;
  status: 'open' | 'sharing' | 'shared';
  shareId: string | null;
  storageId: string;
  filesCount: number;
}

export interface CartEntry {
  id: string;
  name: string | null;
  size: number;
  mime: string | null;
  state: 'ready' | 'trashed' | 'deleted';
}

/** What sharing the cart would count (`GET /carts/{id}/cost/`). */
export interface CartCost {
  filesCount: number;
  totalSize: number;
  largestFileSize: number;
  maxFileSize: number | null;
  oversizedFileIds: string[];
  missingFileIds: string[];
  sharesUsed: number;
  sharesLimit: number | null;
  sharesLeft: number | null;
  refused: boolean;
  reasons: string[];
}

export type CartShareFields = Omit<ShareInput, 'itemIds'>;

const enc = encodeURIComponent;

/** The upload-and-share cart: uploaded files gathered until they become one share. */
export const cartApi = {
  open: () => api.post<Cart>('/carts/', {}),
  entries: (id: string) => api.get<{ data: CartEntry[]; totalCount: number }>(`/carts/${enc(id)}/entries`).then((a) => a.data),
  add: (id: string, fileIds: string[]) => api.post<{ data: CartEntry[]; totalCount: number }>(`/carts/${enc(id)}/entries`, { fileIds }).then((a) => a.data),
  remove: (id: string, fileId: string) => api.delete<void>(`/carts/${enc(id)}/entries/${enc(fileId)}`),
  cost: (id: string) => api.get<{ cost: CartCost }>(`/carts/${enc(id)}/cost/`).then((a) => a.cost),
  share: (id: string, fields: CartShareFields) => api.post<Share>(`/carts/${enc(id)}/share`, fields),
};
