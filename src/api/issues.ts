/**
 * Turns zod issues into one short line such as `data[3].status: expected string, received number`,
 * so logs and error messages stay readable instead of dumping the issue array.
 */
import type { z } from 'zod';

const MAX_ISSUES_SHOWN = 3;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** `['data', 3, 'status']` -> `data[3].status`. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (typeof segment === 'string' && IDENTIFIER.test(segment)) text += text ? `.${segment}` : segment;
    else text += `[${JSON.stringify(String(segment))}]`;
  }
  return text || '(root)';
}

/** zod prefixes most messages with a generic phrase that adds nothing to a summary. */
function shortMessage(message: string): string {
  return message.replace(/^Invalid (input|option): /, '');
}

/** `prefix` is prepended to every issue path, e.g. `['data', 3]` for the fourth list item. */
export function summariseIssues(issues: readonly z.core.$ZodIssue[], prefix: readonly PropertyKey[] = []): string {
  const shown = issues
    .slice(0, MAX_ISSUES_SHOWN)
    .map((issue) => `${formatIssuePath([...prefix, ...issue.path])}: ${shortMessage(issue.message)}`);
  const hidden = issues.length - shown.length;
  return hidden > 0 ? `${shown.join('; ')} (+${hidden} more)` : shown.join('; ');
}
