import { api } from '../../api/client';

/** A pin of a paid file (its status as the IPFS Pinning Service API names it) and its public link. */
export interface IpfsPin {
  id: string;
  status: 'queued' | 'pinning' | 'pinned' | 'failed' | 'unpinned';
  cid: string | null;
  size: number;
  itemId: string;
  url: string | null;
}

export interface IpfsGateway {
  /** The preferred gateway, or null for the product's own. */
  gateway: string | null;
  /** The product's own gateway (links `<it>/ipfs/<cid>`). */
  defaultGateway: string;
}

const enc = encodeURIComponent;

export const ipfsApi = {
  pinsOfFetch: async (userId: string, fetchId: string): Promise<IpfsPin[]> =>
    (await api.get<{ data: IpfsPin[] }>(`/users/${enc(userId)}/secure-fetches/${enc(fetchId)}/pins`)).data,
  gateway: (userId: string) => api.get<IpfsGateway>(`/users/${enc(userId)}/ipfs-gateway`),
  chooseGateway: (userId: string, gateway: string | null) => api.put<IpfsGateway>(`/users/${enc(userId)}/ipfs-gateway`, { gateway }),
};
