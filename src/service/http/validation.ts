import type { z } from 'zod';
import { ValidationError, type ErrorDetail } from './errors.ts';

export type InputLocation = 'body' | 'query';

/** zod issues as `{ path, message }` details; a root-level issue is named after where the input came from. */
export function issuesToDetails(issues: readonly z.core.$ZodIssue[], location: InputLocation): ErrorDetail[] {
  return issues.map((issue) => ({
    path: issue.path.length === 0 ? location : issue.path.map(String).join('.'),
    message: issue.message,
  }));
}

/** Parses request input with a contract schema, or throws a 400 validation_error naming every problem. */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown, location: InputLocation): z.output<T> {
  const result = schema.safeParse(input);
  if (!result.success) {
    const message = location === 'query' ? 'invalid query parameters' : 'request body failed validation';
    throw new ValidationError(issuesToDetails(result.error.issues, location), message);
  }
  return result.data;
}

/** Rejects a field the schema would otherwise silently drop (e.g. a monitor's immutable `type`). */
export function rejectImmutableField(body: unknown, field: string, reason: string): void {
  if (typeof body === 'object' && body !== null && Object.hasOwn(body, field)) {
    throw new ValidationError([{ path: field, message: reason }]);
  }
}
