/**
 * What a person types for a monitor or a page (its id, its name in any case, a page's slug) to
 * the one item it means. Exact id first, then exact name or slug ignoring case, then a unique
 * part of a name. Several matches: a usage error listing them; none: a LookupError naming the
 * known ones, so the next try is right.
 */
import { LookupError, UsageError } from './cli-error.ts';

export interface Named {
  id: string;
  /** What the item is called: display names, slug. */
  names: readonly string[];
  /** How candidates are listed, e.g. `Primary database (mon_123)`. */
  label: string;
}

const MAX_LISTED = 10;

function listed(items: readonly Named[]): string {
  const shown = items.slice(0, MAX_LISTED).map((item) => item.label);
  return items.length > MAX_LISTED ? `${shown.join(', ')}, … (${items.length - MAX_LISTED} more)` : shown.join(', ');
}

export function resolveName<T extends Named>(items: readonly T[], typed: string, kind: string): T {
  const wanted = typed.trim();
  const byId = items.find((item) => item.id === wanted);
  if (byId) return byId;
  const lower = wanted.toLowerCase();
  const exact = items.filter((item) => item.names.some((name) => name.toLowerCase() === lower));
  const matches = exact.length > 0 ? exact : items.filter((item) => item.names.some((name) => name.toLowerCase().includes(lower)));
  if (matches.length === 1 && matches[0]) return matches[0];
  if (matches.length > 1) throw new UsageError(`${kind} "${typed}" is ambiguous: it matches ${listed(matches)}; use the id`);
  throw new LookupError(`no ${kind} "${typed}"${items.length > 0 ? `; known: ${listed(items)}` : ''}`);
}
