import { defineErrors } from '../shared/errors';

/**
 * E-sign (spec rules §5: PDF only, a package name without special characters, signer e-mails
 * unique; §6: eSign only on Professional, Team and Enterprise; §9: signer colors 1 to 10; product
 * §4: a document locked while another user signs, an already-signed state).
 */
export const EsignErrors = defineErrors({
  planRequired: { code: 'ESIGN_PLAN_REQUIRED', status: 403, message: 'eSign is available only on the Professional, Team and Enterprise plans' },
  packageNotFound: { code: 'ESIGN_PACKAGE_NOT_FOUND', status: 404, message: 'E-sign package not found' },
  linkNotFound: { code: 'ESIGN_LINK_NOT_FOUND', status: 404, message: 'This signing link does not exist or no longer works' },
  entryNotFound: { code: 'ESIGN_ENTRY_NOT_FOUND', status: 404, message: 'Document not found in this package' },
  signerNotFound: { code: 'ESIGN_SIGNER_NOT_FOUND', status: 404, message: 'Signer not found in this package' },
  pinNotFound: { code: 'ESIGN_PIN_NOT_FOUND', status: 404, message: 'Field not found in this package' },
  invalidName: { code: 'ESIGN_INVALID_NAME', status: 400, message: 'The package name must not contain special characters' },
  pdfOnly: { code: 'ESIGN_PDF_ONLY', status: 400, message: 'Only PDF files can be signed' },
  signerEmailExists: { code: 'ESIGN_SIGNER_EMAIL_EXISTS', status: 409, message: 'Signer e-mails must be unique in a package' },
  invalidColor: { code: 'ESIGN_INVALID_COLOR', status: 400, message: 'A signer color is a number from 1 to 10' },
  invalidEmail: { code: 'ESIGN_INVALID_EMAIL', status: 400, message: 'Enter a valid e-mail address' },
  invalidPin: { code: 'ESIGN_INVALID_PIN', status: 400, message: 'A field must lie inside a page of its document' },
  notDraft: { code: 'ESIGN_NOT_DRAFT', status: 409, message: 'Only a draft package can be changed' },
  incomplete: { code: 'ESIGN_INCOMPLETE', status: 409, message: 'Add a document, signers and a field for each signer before sending' },
  notAwaiting: { code: 'ESIGN_NOT_AWAITING_SIGNATURES', status: 409, message: 'This package is not waiting for signatures' },
  completed: { code: 'ESIGN_COMPLETED', status: 409, message: 'This package is already completed' },
  archived: { code: 'ESIGN_ARCHIVED', status: 409, message: 'This package is archived' },
  notArchived: { code: 'ESIGN_NOT_ARCHIVED', status: 409, message: 'This package is not archived' },
  alreadySigned: { code: 'ESIGN_ALREADY_SIGNED', status: 409, message: 'You have already signed this document' },
  notYourTurn: { code: 'ESIGN_NOT_YOUR_TURN', status: 409, message: 'Another signer signs before you; you will get an e-mail when it is your turn' },
  notSigned: { code: 'ESIGN_NOT_SIGNED', status: 409, message: 'Sign your fields before finishing' },
  sealRequired: { code: 'ESIGN_SEAL_REQUIRED', status: 409, message: 'The completed document must be sealed before the last signer finishes' },
  locked: { code: 'ESIGN_LOCKED', status: 423, message: 'This document is locked while another user signs' },
  wrongPassword: { code: 'ESIGN_WRONG_PASSWORD', status: 403, message: 'Wrong password' },
  passwordRequired: { code: 'ESIGN_PASSWORD_REQUIRED', status: 401, message: 'Enter the password of this package' },
  invalidSignature: { code: 'ESIGN_INVALID_SIGNATURE', status: 400, message: 'A signature is a typed name or a drawn PNG image' },
  documentNotReady: { code: 'ESIGN_DOCUMENT_NOT_READY', status: 409, message: 'The signed document is ready once every signer has finished' },
});
