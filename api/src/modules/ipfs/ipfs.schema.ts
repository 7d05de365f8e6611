import { z } from 'zod';

export const tags = ['ipfs'];

/** A CID as a path segment: its shape is checked by parsing it (`canonicalCid`), this only bounds it. */
export const CidParams = z.object({ cid: z.string().min(1).max(200) });
export const GatewayQuery = z.object({
  /** The trustless gateway's `format` parameter, an alternative to the Accept header. */
  format: z.enum(['raw', 'car']).optional(),
  filename: z.string().max(200).optional(),
  download: z.string().max(10).optional(),
  'dag-scope': z.enum(['all', 'entity', 'block']).optional(),
  'entity-bytes': z.string().max(50).optional(),
});

export const PinParams = z.object({ id: z.uuid() });
export const UnpinBody = z.object({ reason: z.string().max(2000) });

export const UserParams = z.object({ id: z.string().min(1).max(64) });
export const FetchPinsParams = z.object({ id: z.string().min(1).max(64), fetchId: z.string().min(1).max(64) });
export const GatewayBody = z.object({ gateway: z.string().max(2000).nullable() });
