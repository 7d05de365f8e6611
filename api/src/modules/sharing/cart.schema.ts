import { MAX_CART_ENTRIES } from '@axel/domain';
import { z } from 'zod';
import { CreateShareBody } from './sharing.schema';

export const cartTags = ['sharing'];
export const CartParams = z.object({ id: z.uuid() });
export const CartEntryParams = CartParams.extend({ fileId: z.string().min(1).max(64) });
export const ShareCartParams = z.object({ id: z.string().min(1).max(64) });
export const AddEntriesBody = z.object({ fileIds: z.array(z.string().min(1).max(64)).min(1).max(MAX_CART_ENTRIES) });
/** The share's fields as `POST /shares/` takes them; its items are the cart's files. */
export const ShareCartBody = CreateShareBody.omit({ itemIds: true });

export const CartEntrySchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  size: z.number(),
  mime: z.string().nullable(),
  label: z.literal('file'),
  /** ready: a live file of the storage; trashed or deleted since it was added. */
  state: z.enum(['ready', 'trashed', 'deleted']),
});
export const CartSchema = z.object({
  id: z.string(),
  status: z.enum(['open', 'sharing', 'shared']),
  shareId: z.string().nullable(),
  storageId: z.string(),
  filesCount: z.number(),
  createdAt: z.string(),
  modifiedAt: z.string(),
});
export const CartWithEntriesSchema = CartSchema.extend({ entries: z.array(CartEntrySchema) });
export const CostSchema = z.object({
  cost: z.object({
    filesCount: z.number(),
    totalSize: z.number(),
    largestFileSize: z.number(),
    /** 10 MiB per file without `unlimited-shared-file-size`; null when unlimited. */
    maxFileSize: z.number().nullable(),
    oversizedFileIds: z.array(z.string()),
    missingFileIds: z.array(z.string()),
    sharesUsed: z.number(),
    /** The plan's shares a month; null when unlimited. */
    sharesLimit: z.number().nullable(),
    sharesLeft: z.number().nullable(),
    /** Whether sharing the cart now would be refused, and why (the codes the share call would answer). */
    refused: z.boolean(),
    reasons: z.array(z.string()),
  }),
});
