import { fold } from '../shared/decider';
import type { CreateShare, ShareCommand, ShareItemCandidate } from './sharing.commands';
import { shareDecider } from './sharing.decide';
import type { ShareEvent } from './sharing.events';
import type { ShareState } from './sharing.state';

export const fileCandidate = (id: string, size = 100): ShareItemCandidate => ({
  id,
  kind: 'file',
  name: `${id}.txt`,
  size,
  fileCount: 1,
  largestFileSize: size,
});

export const createShareCommand = (now: Date, data: Partial<CreateShare['data']> = {}): CreateShare => ({
  type: 'CreateShare',
  metadata: { now },
  data: {
    shareId: 'share-1',
    linkId: 'AAAAAAAAAAAAAAAAAAAAAA',
    ownerId: 'owner-1',
    ownerEmail: 'owner@example.com',
    storageId: 'storage-1',
    title: 'Holiday photos',
    downloadable: true,
    items: [fileCandidate('f1')],
    unlimitedFileSize: false,
    ...data,
  },
});

/** Runs commands one after another on one share; a refused command leaves the events as they were. */
export const runShare = (commands: readonly ShareCommand[], events: ShareEvent[] = []): { events: ShareEvent[]; state: ShareState; errors: unknown[] } => {
  const errors: unknown[] = [];
  for (const command of commands) {
    try {
      events = [...events, ...shareDecider.decide(command, fold(shareDecider, events))];
    } catch (error) {
      errors.push(error);
    }
  }
  return { events, state: fold(shareDecider, events), errors };
};
