import { api } from '../../api/client';
import type { ReplenishState } from './replenishOutcome';
import type { ChainInfo, Contact, ContactInput, ReceiveInfo, SendRequest, TransactionPage, WalletBalance, WalletSummary } from './wallet.types';

const WALLET = '/wallet/v1';
/** The specification: a balance request without an answer after 20 s is abandoned. */
export const BALANCE_TIMEOUT_MS = 20_000;
/** The specification's page size of the transaction list. */
export const TRANSACTIONS_PER_PAGE = 10;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null);

const transactionOf = (raw: unknown): TransactionPage['items'][number] => {
  const r = isRecord(raw) ? raw : {};
  return {
    ...(r as Partial<TransactionPage['items'][number]>),
    id: str(r.id) ?? str(r.txid) ?? str(r.transactionId) ?? '',
    amount: str(r.amount) ?? '0',
    confirmations: typeof r.confirmations === 'number' ? r.confirmations : 0,
  };
};

/** A page of transactions, whether the server answers a bare array or `{ items|data|transactions, total }`. */
export const transactionPageOf = (raw: unknown, page: number, perPage: number): TransactionPage => {
  const list = Array.isArray(raw) ? raw : isRecord(raw) ? ((raw.items ?? raw.data ?? raw.transactions ?? []) as unknown[]) : [];
  const items = (Array.isArray(list) ? list : []).map(transactionOf);
  const total = isRecord(raw) && typeof raw.total === 'number' ? raw.total : (page - 1) * perPage + items.length;
  return { items, total, page, perPage };
};

/** The chain's name and whether it is the development chain, however the server spells it. */
export const chainInfoOf = (raw: unknown): ChainInfo => {
  const r = isRecord(raw) ? raw : {};
  const chain = str(r.chain) ?? str(r.network) ?? '';
  const development = r.development === true || r.isDevelopment === true || /^(development|regtest|dev)$/i.test(chain);
  const blocks = typeof r.blocks === 'number' ? r.blocks : typeof r.height === 'number' ? r.height : null;
  const costs =
    isRecord(r.costs) && str(r.costs.fetch) && str(r.costs.certificate) ? { fetch: str(r.costs.fetch)!, certificate: str(r.costs.certificate)! } : null;
  return { chain, development, blocks, faucet: r.faucet === true, minimumSend: str(r.minimumSend), costs };
};

const receiveOf = (raw: unknown): ReceiveInfo => {
  const r = isRecord(raw) ? raw : {};
  return { address: str(r.address) ?? '', qr: str(r.qr) ?? str(r.qrDataUrl) ?? str(r.qrCode) ?? '' };
};

const contactsOf = (raw: unknown): Contact[] => {
  const list = Array.isArray(raw) ? raw : isRecord(raw) ? (raw.items ?? raw.data ?? raw.contacts ?? []) : [];
  return (Array.isArray(list) ? list : []) as Contact[];
};

const contactsPath = (userId: string) => `/users/${encodeURIComponent(userId)}/contacts/`;

export const walletApi = {
  summary: (signal?: AbortSignal) => api.request<WalletSummary>('GET', `${WALLET}/`, { signal, timeoutMs: BALANCE_TIMEOUT_MS }),
  balance: (signal?: AbortSignal) => api.request<WalletBalance>('GET', `${WALLET}/balance`, { signal, timeoutMs: BALANCE_TIMEOUT_MS }),
  chainInfo: async () => chainInfoOf(await api.get<unknown>(`${WALLET}/blockchaininfo`)),
  masternodes: () => api.get<unknown>(`${WALLET}/masternodes/count`),
  transactions: async (query: { address?: string; page: number; perPage?: number }) => {
    const perPage = query.perPage ?? TRANSACTIONS_PER_PAGE;
    const raw = await api.get<unknown>(`${WALLET}/transactions`, { address: query.address, page: query.page, perPage });
    return transactionPageOf(raw, query.page, perPage);
  },
  createAddress: () => api.post<unknown>(`${WALLET}/addresses`),
  send: (request: SendRequest) =>
    api.request<unknown>('POST', `${WALLET}/send`, {
      body: { address: request.address, amount: request.amount, note: request.note, idempotencyKey: request.idempotencyKey },
    }),
  receive: async () => receiveOf(await api.get<unknown>(`${WALLET}/receive`)),
  replenish: (amount: string) => api.post<{ checkoutLink: string }>(`${WALLET}/replenish`, { amount }),
  replenishState: (checkoutId: string) => api.get<ReplenishState>(`${WALLET}/replenish/${encodeURIComponent(checkoutId)}`),
  faucet: (amount: string) => api.post<unknown>(`${WALLET}/faucet`, { amount }),
  contacts: async (userId: string) => contactsOf(await api.get<unknown>(contactsPath(userId))),
  addContact: (userId: string, contact: ContactInput) => api.post<Contact>(contactsPath(userId), contact),
  editContact: (userId: string, id: string, contact: ContactInput) => api.put<Contact>(`${contactsPath(userId)}${encodeURIComponent(id)}`, contact),
  deleteContact: (userId: string, id: string) => api.delete<void>(`${contactsPath(userId)}${encodeURIComponent(id)}`),
};
