import { z } from 'zod';

const n = z.number().int().nonnegative();

export const WebsiteHostingSchema = z.object({
  shares: z.object({ active: n, revoked: n, bytesShared: n, byKind: z.array(z.object({ kind: z.string(), count: n })) }),
  access: z.object({ opens: n, downloads: n, sharesOpened: n }),
  sharesByMonth: z.array(z.object({ month: z.string(), created: n })),
  secureFetch: z.object({ links: n, paid: n, bytesReceived: n, byStatus: z.array(z.object({ status: z.string(), count: n })) }),
  topOwners: z.array(z.object({ userId: z.string(), email: z.string().nullable(), shares: n, opens: n })),
});

export const DriveConnectSchema = z.object({
  storagesByType: z.array(z.object({ type: z.string(), count: n, usedBytes: n, totalBytes: n })),
  cloudLockers: n,
  accountsByApp: z.array(z.object({ app: z.string(), count: n })),
  signIns: z.object({ day: n, week: n, month: n }),
  twoFactor: z.array(z.object({ method: z.string(), count: n })),
  dbsAccess: n,
});

export const GrafanaSchema = z.object({ url: z.string().nullable() });
