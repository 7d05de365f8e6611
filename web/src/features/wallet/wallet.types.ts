/** Shapes of the wallet calls (docs/api-wallet.md). Amounts are decimal strings of AXEL. */
export type AddressType = 'primary' | 'fuel';

export interface WalletAddress {
  address: string;
  type: AddressType;
}

/** `GET /wallet/v1/`. */
export interface WalletSummary {
  addresses: WalletAddress[];
  main: string;
  fuel: string;
  pending: string;
  available: string;
  /** Sent, not mined yet. */
  outgoing?: string;
  /** What a send may move now: nothing while tokens wait for a block, either way. */
  sendable?: string;
  /** Why a send must wait: a pending send of the user's, or tokens on their way in. */
  sendBlockedBy?: 'outgoing' | 'incoming' | null;
}

/** `GET /wallet/v1/balance`. */
export interface WalletBalance {
  confirmed: string;
  unconfirmed: string;
}

export interface WalletTransaction {
  id: string;
  /** What it was, when the chain tells: minted test tokens, from or to the treasury. */
  about?: 'minted' | 'fromTreasury' | 'toTreasury' | null;
  note?: string | null;
  timestamp?: string | null;
  type?: string | null;
  category?: string | null;
  amount: string;
  address?: string | null;
  blockIndex?: number | null;
  blockHash?: string | null;
  blockTime?: string | null;
  confirmations: number;
  linkedTransactions?: string[];
}

export interface TransactionPage {
  items: WalletTransaction[];
  total: number;
  page: number;
  perPage: number;
}

/** `GET /wallet/v1/blockchaininfo`. */
export interface ChainInfo {
  chain: string;
  development: boolean;
  blocks: number | null;
  /** The development chain's faucet can be used from here. */
  faucet: boolean;
  /** The least amount a send may carry (the cost shown beside the amount). */
  minimumSend: string | null;
  /** Pinning costs. */
  costs: { fetch: string; certificate: string } | null;
}

/** `GET /wallet/v1/receive`. */
export interface ReceiveInfo {
  address: string;
  qr: string;
}

export interface SendRequest {
  address: string;
  /** Decimal string of AXEL. */
  amount: string;
  note: string;
  idempotencyKey: string;
}

export interface Contact {
  id: string;
  nickname: string;
  firstName?: string | null;
  middleName?: string | null;
  lastName?: string | null;
  email: string;
  email2?: string | null;
  phone?: string | null;
  phone2?: string | null;
  publicKey: string;
  active?: boolean;
}

export type ContactInput = Omit<Contact, 'id' | 'active'>;
