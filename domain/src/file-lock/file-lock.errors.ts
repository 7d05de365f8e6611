import { defineErrors } from '../shared/errors';

/** The two-factor lock on files and folders (spec §4 File 2FA lock, §8 incorrect 2FA code, 5102). */
export const FileLockErrors = defineErrors({
  /** The same code as a storage task that includes a locked item: the client asks for the code. */
  codeRequired: {
    code: '5102',
    status: 403,
    message: 'This item is locked with two-factor verification: enter a verification code to open it',
  },
  incorrectCode: { code: 'TWO_FACTOR_INCORRECT', status: 400, message: 'Incorrect 2FA code' },
  codeExpired: { code: 'CODE_INVALID', status: 400, message: 'The code is invalid or has expired' },
  alreadyLocked: { code: 'ALREADY_LOCKED', status: 409, message: 'This item is already locked' },
  notLocked: { code: 'NOT_LOCKED', status: 409, message: 'This item is not locked' },
  tooManyAttempts: { code: 'TOO_MANY_ATTEMPTS', status: 429, message: 'Too many wrong codes: ask for a new code' },
});
