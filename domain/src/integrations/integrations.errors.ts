import { defineErrors } from '../shared/errors';

/**
 * The connections to outside services: Dropbox and Clio (spec §2 files/dropbox, manage-apps, /app/clio;
 * §5 Dropbox 150 MB; §7), single sign-on, web push and Slack.
 */
export const IntegrationErrors = defineErrors({
  /** The server has no client id (and secret) for this provider: the integration is off here. */
  notConfigured: { code: 'INTEGRATION_NOT_CONFIGURED', status: 503, message: 'This integration is not configured on this server' },
  /** The plan does not permit the app, or the team forbids it to this member (forbidden action `dropbox`). */
  notAllowed: { code: 'APP_NOT_ALLOWED', status: 403, message: 'Your plan or your team does not allow this app' },
  notConnected: { code: 'APP_NOT_CONNECTED', status: 409, message: 'This app is not connected to your account' },
  /** The provider refused the authorization code, or the sign-in round trip did not start here. */
  authorizationRefused: { code: 'APP_AUTHORIZATION_REFUSED', status: 400, message: 'The app did not accept this authorization, please connect again' },
  uploadTooLarge: { code: 'DROPBOX_FILE_TOO_LARGE', status: 413, message: 'Files uploaded to Dropbox are limited to 150 MB' },
  /** The bytes that arrived do not hash to the `content_hash` Dropbox announced for them. */
  contentHashMismatch: {
    code: 'DROPBOX_CONTENT_HASH_MISMATCH',
    status: 422,
    message: 'The file changed or was damaged while it was imported; nothing was saved',
  },
  notAFile: { code: 'DROPBOX_NOT_A_FILE', status: 400, message: 'Only files can be imported' },
  /** The provider kept answering "too many requests" after the waits it asked for. */
  providerBusy: { code: 'APP_PROVIDER_BUSY', status: 429, message: 'The app is busy, please try again in a moment' },
  providerFailed: { code: 'APP_PROVIDER_FAILED', status: 502, message: 'The app could not be reached, please try again later' },
  /** The server holds only ciphertext of an end-to-end encrypted file, and Clio takes documents up to this size. */
  notFileable: { code: 'CLIO_FILE_NOT_FILEABLE', status: 422, message: 'End-to-end encrypted files and files over 100 MB cannot be filed to Clio' },
  matterNotFound: { code: 'CLIO_MATTER_NOT_FOUND', status: 404, message: 'Matter not found' },
  /** A sign-in provider refused the code or could not be reached. */
  signInProviderFailed: { code: 'INTEGRATION_FAILED', status: 502, message: 'The provider refused or could not be reached: try again' },
  signInRoundInvalid: { code: 'SSO_STATE_INVALID', status: 400, message: 'This sign-in attempt has expired or was already used: start again' },
  /** A push subscription or a webhook naming a host that is not the service's own: the server never posts where a user chose. */
  destinationRefused: { code: 'INTEGRATION_DESTINATION_REFUSED', status: 400, message: 'This address is not one of the service’s own' },
});
