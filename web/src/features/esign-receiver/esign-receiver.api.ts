import { z } from 'zod';
import { API_BASE } from '../../api/client';
import { ApiError, ClientErrorCodes, errorFromResponse } from '../../api/errors';

/** The signer's side of a package, `/esign-package-links/{linkId}/...`, each call with `Authorization: Password <password>`. */

export const SIGNING_STATES = ['ready', 'waiting', 'signed', 'finished', 'closed'] as const;

const LinkViewSchema = z.object({
  linkId: z.string(),
  packageId: z.string(),
  name: z.string(),
  message: z.string().nullable(),
  status: z.string(),
  signer: z.object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    color: z.number(),
    signedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
  }),
  signingState: z.enum(SIGNING_STATES),
  locked: z.boolean(),
  documentReady: z.boolean(),
});
export type LinkView = z.infer<typeof LinkViewSchema>;

export const PIN_KINDS = ['signature', 'initials', 'date', 'text'] as const;
export type PinKind = (typeof PIN_KINDS)[number];

const PinSchema = z.object({
  id: z.string(),
  entryId: z.string(),
  signerId: z.string(),
  kind: z.enum(PIN_KINDS),
  page: z.number(),
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
  filled: z.boolean(),
  mine: z.boolean(),
  color: z.number(),
});
export type SigningPin = z.infer<typeof PinSchema>;

const EntrySchema = z.object({
  id: z.string(),
  name: z.string(),
  size: z.number(),
  pageCount: z.number(),
  contentUrl: z.string(),
  pins: z.array(PinSchema),
});
export type SigningEntry = z.infer<typeof EntrySchema>;

export type Signature = { type: 'typed'; text: string } | { type: 'drawn'; image: string };

/** A signing link id as the server makes it: 22 base64url characters. */
export const isLinkId = (value: string | undefined): value is string => !!value && /^[A-Za-z0-9_-]{22}$/.test(value);

/** The header of every signer call. */
export const passwordHeader = (password: string) => ({ Authorization: `Password ${password}` });

export interface ReceiverClientOptions {
  fetch?: typeof fetch;
  baseUrl?: string;
}

export const createReceiverClient = (options: ReceiverClientOptions = {}) => {
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const base = options.baseUrl ?? API_BASE;
  const urlOf = (linkId: string, path: string) => `${base}/esign-package-links/${encodeURIComponent(linkId)}/${path}`;

  const send = async (method: string, linkId: string, path: string, password: string, body?: unknown): Promise<Response> => {
    const headers: Record<string, string> = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json', ...passwordHeader(password) };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let response: Response;
    try {
      response = await doFetch(urlOf(linkId, path), {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'omit',
        keepalive: method === 'DELETE',
      });
    } catch (cause) {
      throw new ApiError(ClientErrorCodes.network, cause instanceof Error ? cause.message : 'Network error');
    }
    if (response.ok) return response;
    const text = await response.text();
    let payload: unknown = text;
    try {
      payload = JSON.parse(text);
    } catch {
      // not JSON: the text is the message
    }
    throw errorFromResponse(response.status, payload, response.statusText);
  };

  const json = async <T>(schema: z.ZodType<T>, response: Response): Promise<T> => {
    const parsed = schema.safeParse(await response.json());
    if (!parsed.success) throw new ApiError(ClientErrorCodes.unknown, 'Unexpected answer from the server');
    return parsed.data;
  };

  return {
    view: async (linkId: string, password: string) => json(LinkViewSchema, await send('GET', linkId, '', password)),
    /** The documents and their fields; opening them to sign takes the signing lease (423 ESIGN_LOCKED while another signer holds it). */
    entries: async (linkId: string, password: string) => json(z.array(EntrySchema), await send('GET', linkId, 'entries/', password)),
    heartbeat: async (linkId: string, password: string) => {
      await send('POST', linkId, 'lock/', password);
    },
    release: async (linkId: string, password: string) => {
      await send('DELETE', linkId, 'lock/', password);
    },
    sign: async (linkId: string, password: string, signature: Signature) => json(LinkViewSchema, await send('POST', linkId, 'sign/', password, { signature })),
    finish: async (linkId: string, password: string) => json(LinkViewSchema, await send('POST', linkId, 'finish/', password, {})),
    /** The sealed PDF, once every signer has finished. */
    document: async (linkId: string, password: string) => (await send('GET', linkId, 'document', password)).blob(),
  };
};

export const receiverApi = createReceiverClient();
