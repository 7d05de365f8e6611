/**
 * Runs a shared zod schema as a react-admin form-level `validate` function, so the console checks
 * the same rules as the API instead of restating them. Zod messages in this codebase are i18n keys
 * (`validation.*`); react-admin translates them when it shows the error under the input.
 */
export interface ZodIssueLike {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** The part of a zod schema this adapter needs; any zod 4 schema satisfies it. */
export interface SafeParser {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: readonly ZodIssueLike[] } };
}

export type FormErrors = { [field: string]: string | FormErrors };

export interface ZodValidateOptions {
  /**
   * Untouched inputs may still be `undefined` in the form values; treat them as empty strings so an
   * empty field reports the schema's "required" message instead of a type error.
   */
  readonly emptyAs?: string | null;
}

const setFirst = (errors: FormErrors, path: readonly PropertyKey[], message: string) => {
  const keys = path.map((key) => String(key));
  if (keys.length === 0) return;
  let node: FormErrors = errors;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    if (typeof next === 'string') return; // a parent already has its own message
    node = node[key] = next ?? {};
  }
  const last = keys[keys.length - 1]!;
  if (node[last] === undefined) node[last] = message;
};

const fillEmpty = (values: unknown, emptyAs: string | null): unknown => {
  if (typeof values !== 'object' || values === null || Array.isArray(values)) return values;
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v === undefined || v === null ? emptyAs : v]));
};

/** One message per field: the first issue the schema reports for it, which is the most basic one. */
export const zodIssuesToErrors = (issues: readonly ZodIssueLike[]): FormErrors => {
  const errors: FormErrors = {};
  for (const issue of issues) setFirst(errors, issue.path, issue.message);
  return errors;
};

export const zodValidate =
  (schema: SafeParser, { emptyAs = '' }: ZodValidateOptions = {}) =>
  (values: Record<string, unknown>): FormErrors => {
    const result = schema.safeParse(fillEmpty(values, emptyAs));
    return result.success ? {} : zodIssuesToErrors(result.error.issues);
  };
