import { describe, expect, it } from 'vitest';
import { placesOfFile, totalLines } from './residency.format';

describe('the residency view', () => {
  it('shows a total per recorded region, where it is kept and its size in the reader’s format', () => {
    const lines = totalLines(
      {
        totals: [
          { region: null, keptIn: null, files: 2, chunks: 3, bytes: 1_500_000 },
          { region: 'eu', keptIn: 'eu', files: 1, chunks: 3, bytes: 2_097_229 },
          { region: 'us', keptIn: null, files: 4, chunks: 4, bytes: 12_000 },
        ],
      },
      'de-DE',
    );
    expect(lines.map((l) => [l.recorded, l.keptIn, l.files, l.chunks])).toEqual([
      ['home', 'home', 2, 3],
      ['eu', 'eu', 1, 3],
      ['us', 'home', 4, 4],
    ]);
    expect(lines[0]!.size).toBe('1,5 MB');
  });

  it('sums a file’s chunks per place, counting the disks there and the chunks no disk holds', () => {
    const eu = (shard: string) => ({ shard, region: 'eu' });
    const { places, missing } = placesOfFile({
      chunks: [
        { cid: 'b1', size: 1, shards: [eu('eu-a'), eu('eu-b')] },
        { cid: 'b2', size: 1, shards: [eu('eu-b'), eu('eu-c')] },
        { cid: 'b3', size: 1, shards: [eu('eu-a'), { shard: 'shard-0', region: null }] },
        { cid: 'b4', size: 1, shards: [] },
      ],
    });
    expect(places).toEqual([
      { place: 'eu', chunks: 3, shards: 3 },
      { place: 'home', chunks: 1, shards: 1 },
    ]);
    expect(missing).toBe(1);
  });
});
