import { configSecrets, describeFindings, scanEventsForSecrets, type SecretFinding } from '../api/src/testing/secret-scan';
import type { TestDatabase } from './db';

/**
 * Drops a database a product process wrote to (the crash tests run `api/src/main.ts` as a child
 * process), after the check `startTestApp`'s stop makes: no stored event may hold a password, a
 * mailed token, a configured secret (`env`: what the product was started with) or anything
 * secret-shaped. The database is dropped either way; the findings then fail the test file.
 */
export const dropAfterSecretScan = async (db: TestDatabase | undefined, env: Readonly<Record<string, unknown>> = {}): Promise<void> => {
  if (!db) return;
  let findings: SecretFinding[];
  try {
    findings = await scanEventsForSecrets(db.pool, configSecrets(env));
  } finally {
    await db.drop();
  }
  if (findings.length) throw new Error(describeFindings(findings));
};
