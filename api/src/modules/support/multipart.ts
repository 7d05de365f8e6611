import { CommonErrors, DomainError } from '@axel/domain';

export interface ParsedForm {
  readonly fields: Record<string, string>;
  readonly files: Record<string, { filename: string; contentType: string; content: Buffer }>;
}

/**
 * A multipart/form-data body read whole (its size is capped by the route's body limit) with the
 * platform's own WHATWG parser (undici's `Response.formData`), so no parser of ours reads it.
 */
export const parseMultipart = async (body: Buffer, contentType: string): Promise<ParsedForm> => {
  let form: FormData;
  try {
    form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new DomainError(CommonErrors.validation, { fields: { body: 'validation.multipart' } }, 'The form could not be read');
  }
  const fields: Record<string, string> = {};
  const files: ParsedForm['files'] = {};
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') fields[name] ??= value;
    else if (!files[name]) {
      files[name] = {
        filename: ([...value.name].map((c) => (c < ' ' || c === '/' || c === '\\' ? '_' : c)).join('') || 'attachment').slice(0, 255),
        contentType: value.type || 'application/octet-stream',
        content: Buffer.from(await value.arrayBuffer()),
      };
    }
  }
  return { fields, files };
};
