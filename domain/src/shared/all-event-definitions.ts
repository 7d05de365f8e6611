import * as domain from '../index';
import type { EventDefinition } from './events';

const isDefinition = (value: unknown): value is EventDefinition =>
  typeof value === 'object' && value !== null && 'type' in value && 'schema' in value && 'upcasters' in value;

/**
 * Every event definition the domain exports, once each: checks that walk all event schemas cover a
 * new context as soon as it exports its events.
 */
export const allEventDefinitions = (): EventDefinition[] => [
  ...new Map(
    (Object.values(domain) as unknown[])
      .flatMap((v) => (Array.isArray(v) ? (v as unknown[]) : [v]))
      .filter(isDefinition)
      .map((d) => [d.type, d] as const),
  ).values(),
];
