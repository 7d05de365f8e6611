import type { App, ClioRegion, IntegrationEvent } from './integrations.events';

export interface Connection {
  readonly app: App;
  readonly accountId: string;
  readonly region: ClioRegion | null;
  readonly refreshToken: string;
}

export interface IntegrationsState {
  readonly connections: Partial<Record<App, Connection>>;
  readonly imports: Readonly<Record<string, { readonly uploadId: string }>>;
  readonly filings: Readonly<Record<string, { readonly documentId: string }>>;
  readonly forgotten: boolean;
}

export const initialIntegrationsState = (): IntegrationsState => ({ connections: {}, imports: {}, filings: {}, forgotten: false });

export const evolveIntegrations = (state: IntegrationsState, event: IntegrationEvent): IntegrationsState => {
  switch (event.type) {
    case 'AppConnected': {
      const { app, accountId, region, refreshToken } = event.data;
      return { ...state, connections: { ...state.connections, [app]: { app, accountId, region, refreshToken } } };
    }
    case 'AppDisconnected': {
      const { [event.data.app]: _gone, ...rest } = state.connections;
      return { ...state, connections: rest };
    }
    case 'DropboxFileImported':
      return { ...state, imports: { ...state.imports, [event.data.importId]: { uploadId: event.data.uploadId } } };
    case 'ClioDocumentFiled':
      return { ...state, filings: { ...state.filings, [event.data.filingId]: { documentId: event.data.documentId } } };
    case 'IntegrationsForgotten':
      return { ...initialIntegrationsState(), forgotten: true };
    default:
      return state;
  }
};
