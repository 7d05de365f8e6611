import { PLAN_FEATURES } from '@axel/domain/billing/billing.catalogue';
import { SHARED_FILE_MAX_BYTES } from '@axel/domain/sharing/sharing.rules';
import type { PlanIncludes } from './billing.types';

/** One line of a plan card: an i18n key under `billing.plans.includes`, and the values it names. */
export interface IncludedLine {
  key: string;
  count?: number;
  bytes?: number;
  mebibytes?: number;
}

/**
 * What a plan card lists under the storage, from the catalogue's grants only: the accounts that come
 * with it, the group's shared storage, shares and Secure Fetch requests a month, the shared-file size
 * limit (spec §6: 10 MiB without the unlimited-shared-file-size permission) and the plan's features.
 */
export const includedLines = (includes: PlanIncludes): IncludedLine[] => {
  const lines: IncludedLine[] = [];
  if (includes.accounts > 0) lines.push({ key: 'accounts', count: includes.accounts });
  if (includes.groupStorageBytes > 0) lines.push({ key: 'groupStorage', bytes: includes.groupStorageBytes });
  lines.push(includes.sharesPerMonth === null ? { key: 'sharesUnlimited' } : { key: 'shares', count: includes.sharesPerMonth });
  if (includes.permissions.includes('secure-fetch'))
    lines.push(includes.fetchesPerMonth === null ? { key: 'fetchesUnlimited' } : { key: 'fetches', count: includes.fetchesPerMonth });
  lines.push(
    includes.permissions.includes('unlimited-shared-file-size')
      ? { key: 'sharedFileSizeUnlimited' }
      : { key: 'sharedFileSize', mebibytes: SHARED_FILE_MAX_BYTES / 2 ** 20 },
  );
  // the catalogue's order, whatever order the answer lists them in
  for (const feature of PLAN_FEATURES) if (includes.features.includes(feature)) lines.push({ key: `feature.${feature}` });
  return lines;
};
