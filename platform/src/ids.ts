import { v5 as uuidv5, v7 as uuidv7 } from 'uuid';

export const newId = (): string => uuidv7();

const NAMESPACE = '6f1d3a3e-8d53-4f43-9f0d-3b3f5c8a9e21';

/** The same inputs always give the same id: retries of one command append the same events. */
export const deterministicId = (...parts: string[]): string => uuidv5(parts.join('\u0000'), NAMESPACE);
