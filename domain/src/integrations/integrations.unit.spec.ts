import { describe, expect, it } from 'vitest';
import { DeciderSpecification } from '../shared/decider.testing';
import type { IntegrationCommand } from './integrations.commands';
import { DROPBOX_UPLOAD_MAX_BYTES, integrationsDecider } from './integrations.decide';
import { IntegrationErrors } from './integrations.errors';
import { integrationEventDefinitions, type IntegrationEvent } from './integrations.events';

const metadata = { now: new Date('2026-11-01T00:00:00Z') };
const cmd = <T extends IntegrationCommand['type']>(type: T, data: Extract<IntegrationCommand, { type: T }>['data']) =>
  ({ type, data, metadata }) as IntegrationCommand;
const dropboxConnected: IntegrationEvent = { type: 'AppConnected', data: { app: 'dropbox', accountId: 'dbid:1', region: null, refreshToken: 'r1' } };
const clioConnected: IntegrationEvent = { type: 'AppConnected', data: { app: 'clio', accountId: '42', region: 'eu', refreshToken: 'c1' } };
const filing = {
  filingId: 'f1',
  matterId: '7',
  documentId: '99',
  name: 'contract.pdf',
  kind: 'file' as const,
  size: 10,
  sha256: 'ab',
  sourceId: 'item-1',
  certificateSha256: null,
  txId: null,
};

const given = DeciderSpecification.for(integrationsDecider);

describe('integrations', () => {
  it('connects an app once; the same tokens again change nothing, new ones replace them', () => {
    given([])
      .when(cmd('ConnectApp', dropboxConnected.data as never))
      .then([dropboxConnected]);
    given([dropboxConnected])
      .when(cmd('ConnectApp', dropboxConnected.data as never))
      .thenNothingHappened();
    given([dropboxConnected])
      .when(cmd('ConnectApp', { app: 'dropbox', accountId: 'dbid:1', region: null, refreshToken: 'r2' }))
      .thenState((state) => expect(state.connections.dropbox?.refreshToken).toBe('r2'));
  });

  it('disconnects a connected app, and a disconnected one silently', () => {
    given([dropboxConnected])
      .when(cmd('DisconnectApp', { app: 'dropbox', reason: 'not_allowed' }))
      .then([{ type: 'AppDisconnected', data: { app: 'dropbox', reason: 'not_allowed' } }]);
    given([])
      .when(cmd('DisconnectApp', { app: 'clio', reason: 'user' }))
      .thenNothingHappened();
  });

  it('records imports once per import, only while Dropbox is connected', () => {
    const data = { importId: 'i1', path: '/a.txt', contentHash: 'h', size: 3, storageId: 's', uploadId: 'u' };
    given([dropboxConnected])
      .when(cmd('RecordDropboxImport', data))
      .then([{ type: 'DropboxFileImported', data }]);
    given([dropboxConnected, { type: 'DropboxFileImported', data }])
      .when(cmd('RecordDropboxImport', data))
      .thenNothingHappened();
    given([clioConnected]).when(cmd('RecordDropboxImport', data)).thenThrows(IntegrationErrors.notConnected);
  });

  it('refuses an upload to Dropbox above 150 MB', () => {
    given([dropboxConnected])
      .when(cmd('RecordDropboxUpload', { path: '/big.bin', contentHash: 'h', size: DROPBOX_UPLOAD_MAX_BYTES + 1 }))
      .thenThrows(IntegrationErrors.uploadTooLarge);
    given([dropboxConnected])
      .when(cmd('RecordDropboxUpload', { path: '/ok.bin', contentHash: 'h', size: DROPBOX_UPLOAD_MAX_BYTES }))
      .then((events) => expect(events.map((e) => e.type)).toEqual(['DropboxFileUploaded']));
  });

  it('files to Clio only while Clio is connected, once per filing', () => {
    given([clioConnected])
      .when(cmd('RecordClioFiling', filing))
      .then([{ type: 'ClioDocumentFiled', data: filing }]);
    given([clioConnected, { type: 'ClioDocumentFiled', data: filing }])
      .when(cmd('RecordClioFiling', filing))
      .thenNothingHappened();
    given([dropboxConnected]).when(cmd('RecordClioFiling', filing)).thenThrows(IntegrationErrors.notConnected);
  });

  it('forgets everything once, and the tokens are personal bearer secrets of the stream', () => {
    given([dropboxConnected, clioConnected])
      .when(cmd('ForgetIntegrations', {}))
      .thenState((state) => expect(state.connections).toEqual({}));
    given([dropboxConnected, { type: 'IntegrationsForgotten', data: { at: metadata.now.toISOString() } }])
      .when(cmd('ForgetIntegrations', {}))
      .thenNothingHappened();
    given([{ type: 'IntegrationsForgotten', data: { at: metadata.now.toISOString() } }])
      .when(cmd('ConnectApp', dropboxConnected.data as never))
      .thenThrows(IntegrationErrors.notConnected);
    const connected = integrationEventDefinitions.find((d) => d.type === 'AppConnected')!;
    expect(connected.personal?.fields).toContain('refreshToken');
    expect(connected.secret).toContain('refreshToken');
  });
});
