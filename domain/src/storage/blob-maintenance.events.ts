import { z } from 'zod';
import { defineEvent, type EventOf } from '../shared/events';

/*
 * The blob store's upkeep: one stream (`blob-maintenance`) whose events set the schedule of the
 * scrub (re-create missing or damaged replicas) and of the collection of unreferenced chunks and
 * keys. The maintenance process on the runtime starts on the first and follows every change.
 * No personal data: intervals only.
 */

export const BLOB_MAINTENANCE_STREAM = 'blob-maintenance';

export const BlobMaintenanceScheduled = defineEvent(
  'BlobMaintenanceScheduled',
  z.object({
    scrubEveryMs: z.number().int().positive(),
    collectEveryMs: z.number().int().positive(),
  }),
);
export type BlobMaintenanceScheduledEvent = EventOf<typeof BlobMaintenanceScheduled>;

export const blobMaintenanceEventDefinitions = [BlobMaintenanceScheduled] as const;
