import { z } from 'zod';
import { defineEvent, erasesOwnStream, type EventOf } from '../shared/events';

/** One stream per pin: a paid file's DAG pinned on IPFS, from its request to its removal. */
export const ipfsPinStreamName = (pinId: string) => `ipfs-pin-${pinId}`;

/**
 * The statuses of the IPFS Pinning Service API (`Status`), shown as they are; a pin staff removed is
 * `unpinned` (it is no longer at the service).
 */
export const PIN_STATUSES = ['queued', 'pinning', 'pinned', 'failed'] as const;
export type PinStatus = (typeof PIN_STATUSES)[number];
export type PinRecordStatus = PinStatus | 'unpinned';

/** What was paid for: a received file of a Secure Fetch link. */
export const PinSourceSchema = z.object({
  kind: z.literal('secure-fetch'),
  fetchId: z.string(),
  itemId: z.string(),
  storageId: z.string(),
});
export type PinSource = z.infer<typeof PinSourceSchema>;

/** A paid file is to be pinned (queued): its owner, what was paid and which service pins it. */
export const IpfsPinRequested = defineEvent(
  'IpfsPinRequested',
  z.object({ pinId: z.string(), ownerId: z.string(), source: PinSourceSchema, size: z.number().int().nonnegative(), txId: z.string(), service: z.string() }),
);
/** The DAG is being built and handed to the service. */
export const IpfsPinStarted = defineEvent('IpfsPinStarted', z.object({ attempt: z.number().int().positive() }));
/** The service holds the DAG pinned: its root CID and how many blocks and bytes it has. */
export const IpfsPinPinned = defineEvent(
  'IpfsPinPinned',
  z.object({ cid: z.string(), blocks: z.number().int().nonnegative(), dagSize: z.number().int().nonnegative() }),
);
/** The reason can quote the file's name or the owner's words from the service's answer: personal. */
export const IpfsPinFailed = defineEvent('IpfsPinFailed', z.object({ reason: z.string() }), { personal: ['reason'] });
/** Staff asked a failed pin to be tried again: it is queued again. */
export const IpfsPinRetried = defineEvent('IpfsPinRetried', z.object({}));
/** Staff removed the pin, with their reason: the gateway no longer serves it. */
export const IpfsPinRemoved = defineEvent('IpfsPinRemoved', z.object({ reason: z.string() }), { personal: ['reason'] });

export type IpfsPinEvent =
  | EventOf<typeof IpfsPinRequested>
  | EventOf<typeof IpfsPinStarted>
  | EventOf<typeof IpfsPinPinned>
  | EventOf<typeof IpfsPinFailed>
  | EventOf<typeof IpfsPinRetried>
  | EventOf<typeof IpfsPinRemoved>;

/** One stream per account for its IPFS settings. */
export const ipfsSettingsStreamName = (userId: string) => `ipfs-settings-${userId}`;
/** The account's preferred IPFS gateway (null: the product's own), which builds the public links it copies. */
export const IpfsGatewayChosen = defineEvent('IpfsGatewayChosen', z.object({ gateway: z.string().nullable() }), { personal: ['gateway'] });
/** The account was purged: its IPFS settings are forgotten with it. */
export const IpfsSettingsForgotten = defineEvent('IpfsSettingsForgotten', z.object({}), { erases: erasesOwnStream });
export type IpfsSettingsEvent = EventOf<typeof IpfsGatewayChosen> | EventOf<typeof IpfsSettingsForgotten>;

export const ipfsEventDefinitions = [
  IpfsPinRequested,
  IpfsPinStarted,
  IpfsPinPinned,
  IpfsPinFailed,
  IpfsPinRetried,
  IpfsPinRemoved,
  IpfsGatewayChosen,
  IpfsSettingsForgotten,
];
