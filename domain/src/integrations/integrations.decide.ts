import { assertNever, type Decider } from '../shared/decider';
import { DomainError } from '../shared/errors';
import type { IntegrationCommand } from './integrations.commands';
import { IntegrationErrors } from './integrations.errors';
import type { App, IntegrationEvent } from './integrations.events';
import { evolveIntegrations, initialIntegrationsState, type IntegrationsState } from './integrations.state';

/** Spec §5: an upload to Dropbox is at most 150 MB. */
export const DROPBOX_UPLOAD_MAX_BYTES = 150 * 1024 * 1024;
/** The largest document filed to Clio in one upload (the bytes are sent in one PUT). */
export const CLIO_FILING_MAX_BYTES = 100 * 1024 * 1024;
/** Spec §9: the dropbox view lists 500 entries a page. */
export const DROPBOX_PAGE_SIZE = 500;

const connected = (state: IntegrationsState, app: App) => {
  const connection = state.connections[app];
  if (!connection) throw new DomainError(IntegrationErrors.notConnected, { app });
  return connection;
};

const decide = (command: IntegrationCommand, state: IntegrationsState): IntegrationEvent[] => {
  // a purged account connects nothing again
  if (state.forgotten && command.type !== 'ForgetIntegrations') throw new DomainError(IntegrationErrors.notConnected, { forgotten: true });
  switch (command.type) {
    case 'ConnectApp': {
      const { app, accountId, region, refreshToken } = command.data;
      const current = state.connections[app];
      if (current && current.refreshToken === refreshToken && current.accountId === accountId && current.region === region) return [];
      return [{ type: 'AppConnected', data: { app, accountId, region, refreshToken } }];
    }
    case 'DisconnectApp':
      return state.connections[command.data.app] ? [{ type: 'AppDisconnected', data: command.data }] : [];
    case 'RecordDropboxImport': {
      if (state.imports[command.data.importId]) return [];
      connected(state, 'dropbox');
      return [{ type: 'DropboxFileImported', data: command.data }];
    }
    case 'RecordDropboxUpload': {
      connected(state, 'dropbox');
      if (command.data.size > DROPBOX_UPLOAD_MAX_BYTES) throw new DomainError(IntegrationErrors.uploadTooLarge, { max: DROPBOX_UPLOAD_MAX_BYTES });
      return [{ type: 'DropboxFileUploaded', data: command.data }];
    }
    case 'RecordClioFiling': {
      if (state.filings[command.data.filingId]) return [];
      connected(state, 'clio');
      return [{ type: 'ClioDocumentFiled', data: command.data }];
    }
    case 'ForgetIntegrations':
      return state.forgotten ? [] : [{ type: 'IntegrationsForgotten', data: { at: command.metadata.now.toISOString() } }];
    default:
      return assertNever(command);
  }
};

export const integrationsDecider: Decider<IntegrationCommand, IntegrationEvent, IntegrationsState> = {
  decide,
  evolve: evolveIntegrations,
  initialState: initialIntegrationsState,
};
