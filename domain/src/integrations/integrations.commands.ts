import type { Command } from '../shared/decider';
import type { App, ClioRegion } from './integrations.events';

export type IntegrationCommand =
  | Command<'ConnectApp', { app: App; accountId: string; region: ClioRegion | null; refreshToken: string }>
  | Command<'DisconnectApp', { app: App; reason: 'user' | 'not_allowed' | 'refused' }>
  | Command<'RecordDropboxImport', { importId: string; path: string; contentHash: string; size: number; storageId: string; uploadId: string }>
  | Command<'RecordDropboxUpload', { path: string; contentHash: string; size: number }>
  | Command<
      'RecordClioFiling',
      {
        filingId: string;
        matterId: string;
        documentId: string;
        name: string;
        kind: 'file' | 'certificate';
        size: number;
        sha256: string;
        sourceId: string;
        certificateSha256: string | null;
        txId: string | null;
      }
    >
  | Command<'ForgetIntegrations', Record<string, never>>;
