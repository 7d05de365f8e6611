import { fold } from '../shared/decider';
import { DomainError } from '../shared/errors';
import type { SecureFetchCommand } from './secure-fetch.commands';
import { secureFetchDecider } from './secure-fetch.decide';
import type { ReceivedFile, SecureFetchEvent } from './secure-fetch.events';
import type { SecureFetchState } from './secure-fetch.state';

/** An event history of one link grown by running commands, as the command handler would (tests only). */
export class SecureFetchHistory {
  readonly events: SecureFetchEvent[] = [];
  constructor(public now = new Date('2026-05-04T10:00:00.000Z')) {}
  get state(): SecureFetchState {
    return fold(secureFetchDecider, this.events);
  }
  run<T extends SecureFetchCommand['type']>(type: T, data: Extract<SecureFetchCommand, { type: T }>['data']): SecureFetchEvent[] | DomainError {
    try {
      const produced = secureFetchDecider.decide({ type, data, metadata: { now: this.now } } as SecureFetchCommand, this.state);
      this.events.push(...produced);
      return produced;
    } catch (error) {
      if (error instanceof DomainError) return error;
      throw error;
    }
  }
  create(overrides: Partial<Extract<SecureFetchCommand, { type: 'CreateSecureFetch' }>['data']> = {}) {
    return this.run('CreateSecureFetch', {
      fetchId: 'f1',
      linkId: 'L'.repeat(22),
      ownerId: 'u1',
      note: 'Send me the manuscript',
      expiresAt: null,
      includeMetadata: true,
      hashChoice: [],
      certificated: true,
      ...overrides,
    });
  }
}

export const receivedFile = (n: number, size = 100): ReceivedFile => ({
  itemId: `item-${n}`,
  uploadId: `upload-${n}`,
  name: `file-${n}.txt`,
  size,
  mime: 'text/plain',
  relpath: null,
  modified: null,
  hashes: { md5: 'a'.repeat(32), sha1: 'b'.repeat(40), sha3_512: 'c'.repeat(128) },
});
