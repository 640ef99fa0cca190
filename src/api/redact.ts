/**
 * Removes the API key from any text that could end up in an error message or a log line.
 * A misbehaving server may echo the Authorization header back in its error body.
 */
export const REDACTED = '[redacted]';

export type Redactor = (text: string) => string;

export function createRedactor(secret: string): Redactor {
  if (!secret) return (text) => text;
  return (text) => text.split(secret).join(REDACTED);
}

/** Applies the redactor to every string inside a JSON value. */
export function redactJson(value: unknown, redact: Redactor): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactJson(item, redact));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [redact(key), redactJson(item, redact)]));
  }
  return value;
}
