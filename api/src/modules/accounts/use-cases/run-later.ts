import { DomainError } from '@axel/domain';
import type { AppContext } from '../../../context';

/**
 * Runs work after the answer has left: calls that must answer alike for known and unknown
 * addresses (resets, resends) answer 202 at once and look the address up afterwards, so neither
 * their answer nor its timing says whether the address has an account. Errors are logged.
 */
export const later = (ctx: AppContext, task: string, work: () => Promise<unknown>): void => {
  work().catch((error: unknown) => {
    const expected = error instanceof DomainError;
    ctx.log[expected ? 'warn' : 'error']({ task, err: expected ? { code: error.code } : error }, 'background work failed');
  });
};
