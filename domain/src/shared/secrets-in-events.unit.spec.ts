import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { allEventDefinitions } from './all-event-definitions';
import { defineEvent } from './events';

/**
 * Events are the activity log, kept forever and read by staff and auditors: they never hold a
 * secret (a password, a one-time code or link token, a key). A field whose name says it holds one
 * must hold its hash or ciphertext instead (`passwordHash`, `tokenHash`, `secretCiphertext`).
 */
const SECRET_NAME = /(password|passphrase|secret|token|otp|pin|privatekey|apikey|seed|mnemonic|code|cvc|cvv|cardnumber)$/i;

/** Fields named like a secret that are not one, and why. */
const NOT_SECRET: Readonly<Record<string, string>> = {
  'PromoCodeCreated.code': 'a promo code is a public offer code, printed on flyers',
  'CheckoutStarted.promo.code': 'the promo code a buyer typed: public',
  'SubscriptionStarted.promo.code': 'the promo code a subscription was bought with: public',
  'PaymentRecorded.promoCode': 'the promo code a payment used: public',
  'AppConnected.refreshToken':
    "sealed at rest under the account's own key (a personal field, erased with the account) and marked a bearer secret, never shown to staff",
  'CloudLockerClaimOpened.code': "a ten-minute claim code the user's browser shows: it binds nothing alone, the device's signature over it does",
};

const definitions = allEventDefinitions();

interface ZodDef {
  type: string;
  shape?: Record<string, unknown>;
  innerType?: unknown;
  element?: unknown;
  options?: unknown[];
  in?: unknown;
  valueType?: unknown;
}
const defOf = (schema: unknown): ZodDef | undefined => (schema as { _zod?: { def?: ZodDef } })?._zod?.def;

/** Every field path of a schema, through optional, nullable, arrays, unions, records and pipes. */
const fieldPaths = (schema: unknown, path: string, out: string[] = []): string[] => {
  const def = defOf(schema);
  if (!def) return out;
  if (def.type === 'object') {
    for (const [name, inner] of Object.entries(def.shape ?? {})) {
      out.push(`${path}.${name}`);
      fieldPaths(inner, `${path}.${name}`, out);
    }
  } else if (def.innerType) fieldPaths(def.innerType, path, out);
  else if (def.type === 'array') fieldPaths(def.element, `${path}[]`, out);
  else if (def.options) for (const option of def.options) fieldPaths(option, path, out);
  else if (def.type === 'pipe') fieldPaths(def.in, path, out);
  else if (def.type === 'record') fieldPaths(def.valueType, `${path}{}`, out);
  return out;
};

describe('secrets in event schemas', () => {
  it('walks every event schema, nested fields included', () => {
    expect(definitions.length).toBeGreaterThan(20);
    const paths = definitions.flatMap((d) => fieldPaths(d.schema, d.type));
    expect(paths).toContain('UserRegistered.passwordHash');
    expect(paths.some((p) => p.split('.').length > 2)).toBe(true);
  });

  it('no event has a field named like a secret: they hold its hash or ciphertext', () => {
    const found = definitions
      .flatMap((d) => fieldPaths(d.schema, d.type))
      .filter((path) => SECRET_NAME.test(path.split('.').pop()!.replace(/\W/g, '')) && !(path in NOT_SECRET));
    expect(found).toEqual([]);
  });

  it('the rule catches a secret field where it is put', () => {
    const probe = defineEvent('Probe', z.object({ login: z.object({ password: z.string() }), otp: z.string().optional() }));
    const paths = fieldPaths(probe.schema, 'Probe');
    expect(paths.filter((p) => SECRET_NAME.test(p.split('.').pop()!))).toEqual(['Probe.login.password', 'Probe.otp']);
  });
});
