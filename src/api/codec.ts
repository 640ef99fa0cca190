/**
 * A codec turns one raw JSON value into a typed resource, or into a one-line summary of why
 * it could not. Lists decode item by item with it, so one odd record is dropped, not fatal.
 */
import type { z } from 'zod';
import { summariseIssues } from './issues.ts';

/** Called for every list item (or nested link) that was dropped because it failed to parse. */
export type InvalidItemHandler = (resource: string, index: number, summary: string) => void;

export type Decoded<T> = { ok: true; value: T } | { ok: false; summary: string };

export interface Codec<T> {
  /** Singular resource name used in reports, e.g. `monitor`. */
  resource: string;
  /** `path` says where the value sits in the response body, e.g. `['data', 3]`. */
  decode(value: unknown, path: readonly PropertyKey[], onInvalidItem: InvalidItemHandler): Decoded<T>;
}

export function schemaCodec<S extends z.ZodType>(resource: string, schema: S): Codec<z.output<S>> {
  return {
    resource,
    decode(value, path) {
      const result = schema.safeParse(value);
      return result.success ? { ok: true, value: result.data } : { ok: false, summary: summariseIssues(result.error.issues, path) };
    },
  };
}
