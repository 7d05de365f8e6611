import { defineErrors } from '../shared/errors';

/** Connections to outside services (single sign-on, web push, Slack). */
export const IntegrationErrors = defineErrors({
  notConfigured: { code: 'INTEGRATION_NOT_CONFIGURED', status: 503, message: 'This integration is not configured on this server' },
  providerFailed: { code: 'INTEGRATION_FAILED', status: 502, message: 'The provider refused or could not be reached: try again' },
  signInRoundInvalid: { code: 'SSO_STATE_INVALID', status: 400, message: 'This sign-in attempt has expired or was already used: start again' },
  destinationRefused: { code: 'INTEGRATION_DESTINATION_REFUSED', status: 400, message: 'This address is not one of the service’s own' },
});
