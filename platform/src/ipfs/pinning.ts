import type { PinStatus } from '@axel/domain';

/*
 * The pinning port: where the product's paid DAGs are pinned. The statuses are those of the IPFS
 * Pinning Service API (ipfs/pinning-services-api-spec `Status`), shown as they are.
 */

/** One IPLD block: its CID (CIDv1 base32 string) and bytes. */
export interface DagBlock {
  readonly cid: string;
  readonly bytes: Uint8Array;
}

/**
 * A UnixFS file DAG to pin: the inner nodes are given (small), the leaves are named in file order and
 * read on demand from where the file's bytes already are, so pinning makes no second copy of them.
 */
export interface PinnableDag {
  readonly root: string;
  /** Inner (dag-pb) nodes, root first; none when the file is a single leaf. */
  readonly nodes: readonly DagBlock[];
  /** Leaf CIDs in file order. */
  readonly leaves: readonly string[];
  /** The bytes of leaf `index`, verified against its CID by the caller that hands them on. */
  leaf(index: number): Promise<Uint8Array>;
  /** Bytes of the file. */
  readonly size: number;
}

/** Where the pin stands at the service (Pinning Service API `PinStatus`, its fields that matter here). */
export interface PinState {
  readonly requestId: string;
  readonly cid: string;
  readonly status: PinStatus;
  /** Why a pin failed, as the service said. */
  readonly info?: string;
}

export interface PinRequest {
  /** The product's id of the pin: asking again with the same id answers the same pin. */
  readonly requestId: string;
  readonly name: string;
  readonly dag: PinnableDag;
  /**
   * Where the leaves can be read back later (the product's own locator, JSON): a service that keeps
   * no copy of the bytes (the embedded one) records it; one that takes the blocks ignores it.
   */
  readonly origin?: unknown;
}

/**
 * A pinning backend: the product's own (embedded: it serves the blocks itself), a Kubo node through
 * its HTTP RPC, or another IPFS Pinning Service API endpoint.
 */
export interface PinningService {
  readonly kind: string;
  /** Pins the DAG: every block handed over (or recorded) and the root pinned recursively. */
  pin(request: PinRequest): Promise<PinState>;
  /** The pin as the service holds it now, or null when it holds none. */
  status(requestId: string, cid: string): Promise<PinState | null>;
  /** Unpins (the service may collect the blocks); unpinning what is not pinned is a no-op. */
  unpin(requestId: string, cid: string): Promise<void>;
}
