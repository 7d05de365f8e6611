import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckpointRecord, type RecordedCheckpoint } from './record';

const link = (n: number) => Buffer.alloc(32, n);
const checkpoint = (upto: number, l = link(upto)): RecordedCheckpoint => ({ upto, link: l, signature: Buffer.alloc(64, upto), keyId: 'k1', chain: 2 });

describe('the checkpoint record after an accepted restore', () => {
  it('leaves behind what was recorded past the restore, and expects again what comes after it', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'axel-record-'));
    const record = new CheckpointRecord(dir);
    for (const upto of [10, 20, 30]) record.appendCheckpoint(checkpoint(upto));
    record.appendAnchor({ upto: 30, link: link(30), txid: 'tx30' });
    record.appendAnchor({ upto: 10, link: link(10), txid: 'tx10' });
    record.appendRestore({ upto: 10, link: link(10), supersededUpTo: 30, reason: 'restored', acceptedAt: '2026-11-28T00:00:00.000Z', operator: 'ops' });
    // the restored log goes on, over the positions left behind, with other links
    record.appendCheckpoint(checkpoint(20, link(99)));

    for (const read of [record, new CheckpointRecord(dir).refresh()]) {
      expect(read.checkpoints().map((c) => [c.upto, c.link[0]])).toEqual([
        [10, 10],
        [20, 99],
      ]);
      expect(read.last?.upto).toBe(20);
      expect(read.anchors().map((a) => a.txid)).toEqual(['tx10']);
      expect(read.superseded(30, link(30))).toBe(true);
      expect(read.superseded(20, link(20))).toBe(true);
      expect(read.superseded(20, link(99))).toBe(false);
      expect(read.superseded(10, link(10))).toBe(false);
      expect(read.restores()).toEqual([expect.objectContaining({ upto: 10, supersededUpTo: 30, reason: 'restored', operator: 'ops' })]);
    }
  });
});
