/**
 * Builds request paths with every interpolated value encoded as ONE path segment:
 * `resourcePath\`/monitors/${id}/checks\`` never lets an id add segments or a query.
 */
import { ApiUsageError } from './errors.ts';

/** `.` and `..` survive encodeURIComponent but would be resolved as dot-segments. */
function encodeSegment(value: string): string {
  if (value === '') throw new ApiUsageError('an id in a request path must not be empty');
  if (value === '.' || value === '..') return value.replace(/\./g, '%2E');
  return encodeURIComponent(value);
}

export function resourcePath(strings: TemplateStringsArray, ...values: string[]): string {
  let path = strings[0] ?? '';
  values.forEach((value, index) => {
    path += encodeSegment(value) + (strings[index + 1] ?? '');
  });
  return path;
}
