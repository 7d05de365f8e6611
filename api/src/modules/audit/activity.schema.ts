import { z } from 'zod';

/** The widest page the activity list answers; exports page internally at their own size. */
export const MAX_ACTIVITY_PAGE = 500;
export const DEFAULT_ACTIVITY_PAGE = 50;

const text = z.string().trim().min(1).max(320);
const instant = z.iso.datetime({ offset: true });
const position = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
/** One event type, several (`["A","B"]` in JSON, or `A,B` in a query string). */
const types = z
  .union([z.string().max(2000), z.array(z.string().max(100)).max(50)])
  .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((t) => t.trim()).filter(Boolean))
  .pipe(z.array(z.string().regex(/^[A-Za-z][A-Za-z0-9_.:-]{0,99}$/, 'validation.invalid')).max(50));

/**
 * What the activity log can be narrowed to. `user` is a subject (their streams and what they did),
 * `actor` only who acted; both take an id or an e-mail, `actor` also a kind (process, system,
 * anonymous). `before`/`after` are the keyset cursor: global positions, never offsets.
 */
export const ActivityFilterSchema = z
  .object({
    user: text.optional(),
    actor: text.optional(),
    aggregate: text.optional(),
    /** One item of a storage (a file or folder): the events that name it, itself or inside a folder's. */
    item: text.optional(),
    type: types.optional(),
    ip: z.string().trim().min(1).max(100).optional(),
    from: instant.optional(),
    to: instant.optional(),
    before: position.optional(),
    after: position.optional(),
  })
  .strict();
export type ActivityFilter = z.infer<typeof ActivityFilterSchema>;

/** The list in ra-data-simple-rest's dialect (`filter`, `range`, `sort`), or the filters as plain query parameters. */
export const ActivityListQuerySchema = z.object({
  filter: z.string().max(4000).optional(),
  range: z.string().max(100).optional(),
  sort: z.string().max(100).optional(),
  perPage: z.coerce.number().int().min(1).max(MAX_ACTIVITY_PAGE).optional(),
  user: z.string().max(320).optional(),
  actor: z.string().max(320).optional(),
  aggregate: z.string().max(320).optional(),
  item: z.string().max(320).optional(),
  type: z.string().max(2000).optional(),
  ip: z.string().max(100).optional(),
  from: z.string().max(40).optional(),
  to: z.string().max(40).optional(),
  before: z.string().max(20).optional(),
  after: z.string().max(20).optional(),
  /** The language of the rows' sentences (en, es, pt, nl; tags like pt_br or pt-BR too); else Accept-Language, else English. */
  locale: z
    .string()
    .regex(/^[A-Za-z]{2}([_-][A-Za-z]{2})?$/, 'validation.invalid')
    .optional(),
  /** The reader's IANA time zone ("Europe/Lisbon"): instants inside the sentences read in it; UTC when absent or unknown. */
  timeZone: z
    .string()
    .regex(/^[A-Za-z0-9_+\-/]{1,64}$/, 'validation.invalid')
    .optional(),
});
export type ActivityListQuery = z.infer<typeof ActivityListQuerySchema>;

export const ActivityExportQuerySchema = ActivityListQuerySchema.extend({ format: z.enum(['csv', 'jsonl']) });

export const ActorSchema = z.object({
  kind: z.string(),
  id: z.string().nullable(),
  email: z.string().nullable(),
  name: z.string().nullable(),
  /** How the console names the actor: an e-mail, a name, a process, the system. */
  label: z.string(),
});

export const ActivityRowSchema = z.object({
  /** The global position as react-admin's record id. */
  id: z.string(),
  position: z.number(),
  time: z.string(),
  recordedAt: z.string(),
  type: z.string(),
  stream: z.string(),
  revision: z.number(),
  /** The aggregate kind of the stream when time travel can rebuild it (`user`, `storage`...), else null. */
  aggregate: z.string().nullable(),
  actor: ActorSchema,
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  client: z.string().nullable(),
  correlationId: z.string().nullable(),
  causationId: z.string().nullable(),
  sentence: z.string(),
  data: z.unknown(),
});
export type ActivityRow = z.infer<typeof ActivityRowSchema>;

export const StreamParams = z.object({
  stream: z
    .string()
    .min(1)
    .max(300)
    .regex(/^[^\s/\\]+$/, 'validation.invalid'),
});
export const StateQuerySchema = z.object({ at: instant });

export const StateAnswerSchema = z.object({
  stream: z.string(),
  aggregate: z.string(),
  at: z.string(),
  /** Events folded into `state` (those recorded up to `at`) and into `today`. */
  revisionAt: z.number(),
  revisionToday: z.number(),
  state: z.unknown(),
  today: z.unknown(),
  /** Paths (`profile.firstName`) whose value differs between `state` and `today`. */
  differences: z.array(z.string()),
});
