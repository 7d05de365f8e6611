import type { EventRegistry } from '@axel/domain';
import type { EventStore, Pool } from '@axel/platform';
import { rebuildProjection, type Projection, type RebuildResult } from '@axel/projections';

/**
 * Rebuilds every read model from position 0, one after the other: each into its `__next` tables
 * while the live ones keep serving, then swapped in (see rebuildProjection).
 */
export const rebuildAllProjections = async (options: {
  readonly pool: Pool;
  readonly store: EventStore;
  readonly registry: EventRegistry;
  readonly projections: readonly Projection[];
  readonly onRebuilt?: (name: string, result: RebuildResult) => void;
}): Promise<Map<string, RebuildResult>> => {
  const results = new Map<string, RebuildResult>();
  for (const projection of options.projections) {
    const result = await rebuildProjection({ pool: options.pool, store: options.store, registry: options.registry, projection });
    results.set(projection.name, result);
    options.onRebuilt?.(projection.name, result);
  }
  return results;
};
