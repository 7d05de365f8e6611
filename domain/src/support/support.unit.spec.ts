import { describe, expect, it } from 'vitest';
import { DomainError } from '../shared/errors';
import { checkSupportMessage, SUPPORT_ATTACHMENT_MAX_BYTES } from './support';

const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, data: error.data };
    throw error;
  }
  throw new Error('accepted');
};

describe('support message rules', () => {
  it('given a subject and a message, when checked, then both come back trimmed', () => {
    expect(checkSupportMessage({ subject: '  Sync stuck ', text: '\nIt stopped.\n' })).toEqual({ subject: 'Sync stuck', text: 'It stopped.' });
  });

  it('given a blank subject or message, when checked, then each is named as required', () => {
    expect(refusal(() => checkSupportMessage({ subject: '   ', text: '' }))).toEqual({
      code: 'VALIDATION_FAILED',
      data: { fields: { subject: 'validation.required', text: 'validation.required' } },
    });
  });

  it('given an attachment of exactly 15 MB, when checked, then it passes; one byte more is refused', () => {
    expect(checkSupportMessage({ subject: 's', text: 't', attachmentBytes: SUPPORT_ATTACHMENT_MAX_BYTES }).subject).toBe('s');
    expect(refusal(() => checkSupportMessage({ subject: 's', text: 't', attachmentBytes: SUPPORT_ATTACHMENT_MAX_BYTES + 1 })).code).toBe(
      'ATTACHMENT_TOO_LARGE',
    );
  });
});
