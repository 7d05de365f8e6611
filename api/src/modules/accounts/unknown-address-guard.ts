import { countFailure, isIdleGuard, lockedUntilAt, type SignInGuard } from '@axel/domain';

/**
 * Failed sign-ins for addresses that have no account (or a deleted one), counted by the same pure
 * rule as an account's own lockout: the fifth wrong password answers 423 with a lock end, exactly
 * as for a real account, so the lockout answer does not tell which addresses exist.
 *
 * Kept in this process's memory: nothing about a non-account deserves a place in the event log,
 * and the cost of a restart is only a forgotten count. Several API processes behind one balancer
 * would each count on their own (an attacker spreading over them gets a few more tries before a
 * lock, as against a real account); move this to a shared table if that deployment appears.
 */
export class UnknownAddressGuards {
  private readonly guards = new Map<string, SignInGuard>();

  constructor(private readonly maxEntries = 100_000) {}

  /** The end of the running lock for this address key, else null. */
  lockedUntil(key: string, now: number): number | null {
    return lockedUntilAt(this.guards.get(key), now);
  }

  /** Counts a failure; answers the lock end when this failure starts a lock. */
  fail(key: string, now: number): number | null {
    const counted = countFailure(this.guards.get(key), now);
    this.guards.delete(key);
    this.guards.set(key, counted.guard);
    if (this.guards.size > this.maxEntries) this.evict(now);
    return counted.lockedUntil;
  }

  /** Drops idle entries; if a flood keeps them all busy, the oldest-touched go first. */
  private evict(now: number) {
    for (const [key, guard] of this.guards) if (isIdleGuard(guard, now)) this.guards.delete(key);
    for (const key of this.guards.keys()) {
      if (this.guards.size <= this.maxEntries * 0.9) break;
      this.guards.delete(key);
    }
  }
}
