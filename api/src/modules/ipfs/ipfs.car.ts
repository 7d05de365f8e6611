import { CarWriter } from '@ipld/car';
import type { DagBlock } from '@axel/platform/ipfs/pinning';
import { CID } from 'multiformats/cid';

/**
 * A CARv1 of `root` made of `blocks` as they come, streamed: the header, then each block (its CID and
 * bytes), without holding more than the block being written.
 */
export async function* carOf(root: string, blocks: AsyncIterable<DagBlock>): AsyncGenerator<Uint8Array> {
  const { writer, out } = CarWriter.create([CID.parse(root)]);
  let failure: unknown = null;
  const writing = (async () => {
    try {
      for await (const block of blocks) await writer.put({ cid: CID.parse(block.cid), bytes: block.bytes });
    } catch (error) {
      failure = error;
    } finally {
      await writer.close();
    }
  })();
  for await (const piece of out) yield piece;
  await writing;
  if (failure) throw failure;
}
