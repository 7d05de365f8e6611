import { defineErrors } from '../shared/errors';

/** The auto-pay part of the "Admin and wallet" catalogue. */
export const AutoPayErrors = defineErrors({
  csvInvalid: { code: 'AUTOPAY_CSV_INVALID', status: 400, message: 'Auto pay CSV validation failed' },
  duplicateName: { code: 'AUTOPAY_DUPLICATE_NAME', status: 409, message: 'A program with this name already exists' },
  notFound: { code: 'AUTOPAY_PROGRAM_NOT_FOUND', status: 404, message: 'Program not found' },
  payeeNotFound: { code: 'AUTOPAY_PAYEE_NOT_FOUND', status: 404, message: 'Payee not found' },
  notAllowed: { code: 'AUTOPAY_ACTION_NOT_ALLOWED', status: 409, message: 'The program cannot {{action}} while it is {{status}}' },
  noPayees: { code: 'AUTOPAY_NO_PAYEES', status: 409, message: 'Add payees before submitting the program' },
  fourEyesChanged: { code: 'FORBIDDEN', status: 403, message: 'A program is approved by someone who has not changed it since it was submitted' },
  fourEyes: { code: 'FORBIDDEN', status: 403, message: 'A program is approved or rejected by someone other than the staff member who submitted it' },
});
