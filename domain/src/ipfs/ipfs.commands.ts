import type { Command } from '../shared/decider';
import type { PinSource } from './ipfs.events';

export type IpfsPinCommand =
  | Command<'RequestPin', { pinId: string; ownerId: string; source: PinSource; size: number; txId: string; service: string }>
  | Command<'StartPin', Record<string, never>>
  | Command<'CompletePin', { cid: string; blocks: number; dagSize: number }>
  | Command<'FailPin', { reason: string }>
  | Command<'RetryPin', Record<string, never>>
  | Command<'RemovePin', { reason: string }>;
