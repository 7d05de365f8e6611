import { fold } from '../shared/decider';
import { DomainError } from '../shared/errors';
import type { StorageCommand } from './storage.commands';
import { storageDecider } from './storage.decide';
import type { Manifest, StorageEvent } from './storage.events';
import type { StorageState } from './storage.state';

/** An event history grown by running commands, as the command handler would (tests only). */
export class StorageHistory {
  readonly events: StorageEvent[] = [];
  private ids = 0;
  constructor(readonly now = new Date('2026-05-04T10:00:00.000Z')) {}
  get state(): StorageState {
    return fold(storageDecider, this.events);
  }
  cmd<T extends StorageCommand['type']>(type: T, data: Extract<StorageCommand, { type: T }>['data']): StorageCommand {
    return { type, data, metadata: { now: this.now } } as StorageCommand;
  }
  run<T extends StorageCommand['type']>(type: T, data: Extract<StorageCommand, { type: T }>['data']): StorageEvent[] | DomainError {
    try {
      const produced = storageDecider.decide(this.cmd(type, data as never), this.state);
      this.events.push(...produced);
      return produced;
    } catch (error) {
      if (error instanceof DomainError) return error;
      throw error;
    }
  }
  newId = (): string => `id-${++this.ids}`;
}

export const manifestOf = (size: number, keyId = `key-${size}-${Math.random().toString(36).slice(2)}`): Manifest => ({
  keyId,
  chunkPlainSize: 1_048_548,
  chunks: size ? [{ cid: `b${keyId}`, size: 1_048_576 }] : [],
  size,
  sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
});
