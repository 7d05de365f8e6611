import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../shared/errors';
import type { IntegrationCommand } from './integrations.commands';
import { DROPBOX_UPLOAD_MAX_BYTES, integrationsDecider } from './integrations.decide';
import { APPS } from './integrations.events';
import type { IntegrationsState } from './integrations.state';

/*
 * Whatever a user connects, disconnects, imports, uploads and files, in any order:
 * - an app is connected exactly when its last AppConnected has no AppDisconnected after it;
 * - no upload above 150 MB is ever recorded, and nothing goes through an app that is not connected;
 * - after the account is forgotten no token is left in the state.
 */
const metadata = { now: new Date('2026-11-01T00:00:00Z') };
const app = fc.constantFrom(...APPS);
const command: fc.Arbitrary<IntegrationCommand> = fc.oneof(
  fc.record({
    type: fc.constant('ConnectApp' as const),
    data: fc.record({ app, accountId: fc.constantFrom('a', 'b'), region: fc.constant(null), refreshToken: fc.constantFrom('t1', 't2') }),
    metadata: fc.constant(metadata),
  }),
  fc.record({
    type: fc.constant('DisconnectApp' as const),
    data: fc.record({ app, reason: fc.constantFrom('user' as const, 'not_allowed' as const) }),
    metadata: fc.constant(metadata),
  }),
  fc.record({
    type: fc.constant('RecordDropboxUpload' as const),
    data: fc.record({ path: fc.constant('/f'), contentHash: fc.constant('h'), size: fc.integer({ min: 0, max: 2 * DROPBOX_UPLOAD_MAX_BYTES }) }),
    metadata: fc.constant(metadata),
  }),
  fc.record({
    type: fc.constant('RecordDropboxImport' as const),
    data: fc.record({
      importId: fc.constantFrom('i1', 'i2'),
      path: fc.constant('/f'),
      contentHash: fc.constant('h'),
      size: fc.nat(),
      storageId: fc.constant('s'),
      uploadId: fc.constant('u'),
    }),
    metadata: fc.constant(metadata),
  }),
  fc.record({ type: fc.constant('ForgetIntegrations' as const), data: fc.constant({}), metadata: fc.constant(metadata) }),
);

describe('integrations invariants', () => {
  it('connections follow the last connect or disconnect; uploads stay within 150 MB and go through connected apps only', () => {
    fc.assert(
      fc.property(fc.array(command, { maxLength: 40 }), (commands) => {
        let state: IntegrationsState = integrationsDecider.initialState();
        const expected = new Set<string>();
        for (const c of commands) {
          let events;
          try {
            events = integrationsDecider.decide(c, state);
          } catch (error) {
            expect(error).toBeInstanceOf(DomainError);
            continue;
          }
          for (const e of events) {
            if (e.type === 'DropboxFileUploaded') {
              expect(e.data.size).toBeLessThanOrEqual(DROPBOX_UPLOAD_MAX_BYTES);
              expect(state.connections.dropbox).toBeDefined();
            }
            if (e.type === 'DropboxFileImported') expect(state.connections.dropbox).toBeDefined();
            if (e.type === 'AppConnected') expected.add(e.data.app);
            if (e.type === 'AppDisconnected') expected.delete(e.data.app);
            if (e.type === 'IntegrationsForgotten') expected.clear();
            state = integrationsDecider.evolve(state, e);
          }
          expect(new Set(Object.keys(state.connections))).toEqual(expected);
        }
        if (state.forgotten) expect(JSON.stringify(state)).not.toMatch(/t1|t2/);
      }),
    );
  });
});
