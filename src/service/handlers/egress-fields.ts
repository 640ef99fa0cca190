import type { EgressPolicy } from '../egress/egress-policy.ts';
import { ValidationError, type ErrorDetail } from '../http/errors.ts';

/** The target fields of a monitor or channel as they will be saved; absent or null: not set. */
export interface TargetFields {
  url?: string | null | undefined;
  host?: string | null | undefined;
  /** The TCP port that goes with `host`; null for ping (any port). */
  port?: number | null | undefined;
  webhookUrl?: string | null | undefined;
}

/**
 * 400 validation_error naming each field whose target the egress policy refuses (loopback, private,
 * link-local … addresses, see egress-policy.ts). Names are judged again, resolved, at connect time.
 */
export function rejectRefusedTargets(egress: EgressPolicy, fields: TargetFields): void {
  const details: ErrorDetail[] = [];
  const add = (path: string, refusal: string | null): void => {
    if (refusal !== null) details.push({ path, message: refusal });
  };
  if (fields.url) add('url', egress.urlRefusal(fields.url));
  if (fields.host) add('host', egress.refusal(fields.host, fields.port ?? null));
  if (fields.webhookUrl) add('webhookUrl', egress.urlRefusal(fields.webhookUrl));
  if (details.length > 0) throw new ValidationError(details, 'target address is not allowed');
}
