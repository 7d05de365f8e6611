import { EsignErrors } from '@axel/domain/esign/esign.errors';
import { PIN_KINDS } from '@axel/domain/esign/esign.events';
import { PACKAGE_STATUSES } from '@axel/domain/esign/esign.state';
import { describe, expect, it } from 'vitest';
import type { Tree } from '../../i18n/catalogues';
import en_us from './locales/en_us.json';
import es_mx from './locales/es_mx.json';
import nl from './locales/nl.json';
import pt_br from './locales/pt_br.json';

const flatten = (tree: Tree, prefix = ''): Record<string, string> =>
  Object.entries(tree).reduce<Record<string, string>>((out, [k, v]) => {
    const key = prefix ? `${prefix}.${k}` : k;
    return typeof v === 'string' ? { ...out, [key]: v } : { ...out, ...flatten(v, key) };
  }, {});

/** Codes the signer's pages show (their texts live with those pages). */
const SIGNER_CODES = new Set<string>(
  [
    EsignErrors.linkNotFound,
    EsignErrors.locked,
    EsignErrors.wrongPassword,
    EsignErrors.passwordRequired,
    EsignErrors.invalidSignature,
    EsignErrors.alreadySigned,
    EsignErrors.notYourTurn,
    EsignErrors.notSigned,
    EsignErrors.notAwaiting,
    EsignErrors.sealRequired,
    EsignErrors.documentNotReady,
  ].map((e) => e.code),
);

describe('e-sign owner texts', () => {
  const english = flatten(en_us as Tree);

  it('en, es and pt have the same keys; nl (no Dutch e-sign area) shows the English texts', () => {
    for (const other of [es_mx, pt_br]) expect(Object.keys(flatten(other as Tree)).sort()).toEqual(Object.keys(english).sort());
    expect(flatten(nl as Tree)).toEqual(english);
  });

  it('Spanish and Portuguese are translated, not copied', () => {
    for (const other of [es_mx, pt_br]) {
      const texts = flatten(other as Tree);
      expect(texts['esign.status.awaiting_signatures']).not.toBe(english['esign.status.awaiting_signatures']);
      expect(texts['errors.ESIGN_PLAN_REQUIRED']).not.toBe(english['errors.ESIGN_PLAN_REQUIRED']);
    }
  });

  it('has every status, field kind and owner error code the screens build at run time', () => {
    const built = [
      ...PACKAGE_STATUSES.map((s) => `esign.status.${s}`),
      ...PIN_KINDS.map((k) => `esign.pins.${k}`),
      ...['documents', 'signers', 'fields'].map((m) => `esign.missing.${m}`),
      ...['list', 'drafts', 'archive'].map((v) => `esign.list.empty.${v}`),
      ...['finished', 'signed', 'waiting'].map((s) => `esign.signer.${s}`),
      ...Object.values(EsignErrors)
        .filter((e) => !SIGNER_CODES.has(e.code))
        .map((e) => `errors.${e.code}`),
    ];
    for (const key of built) expect(english[key], key).toBeTruthy();
  });

  it("tells a Basic user the spec's plan message", () => {
    expect(english['errors.ESIGN_PLAN_REQUIRED']).toBe(EsignErrors.planRequired.message);
  });
});
