/** Spec §5 and §9: a passphrase has at least 8 characters (checked in the browser, where it stays). */
export const PASSPHRASE_MIN_LENGTH = 8;
export const PASSPHRASE_HINT_MAX_LENGTH = 255;

export type PassphraseProblem = 'required' | 'tooShort' | 'hintRequired' | 'hintRevealsPassphrase' | 'mismatch' | 'sameAsCurrent';

/**
 * Spec §5: at least 8 characters; a hint is required; the confirmation matches; a new passphrase
 * differs from the current one; case sensitive (compared as typed). The browser checks these before
 * the key is (re-)protected; the hint must not give the passphrase away.
 */
export const passphraseProblems = (input: { passphrase: string; confirmation: string; hint: string; current?: string }): PassphraseProblem[] => {
  const problems: PassphraseProblem[] = [];
  if (!input.passphrase) problems.push('required');
  else if ([...input.passphrase].length < PASSPHRASE_MIN_LENGTH) problems.push('tooShort');
  const hint = input.hint.trim();
  if (!hint) problems.push('hintRequired');
  else if (input.passphrase && hint.includes(input.passphrase)) problems.push('hintRevealsPassphrase');
  if (input.confirmation !== input.passphrase) problems.push('mismatch');
  if (input.current !== undefined && input.current === input.passphrase) problems.push('sameAsCurrent');
  return problems;
};
