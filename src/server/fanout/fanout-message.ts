/**
 * What one replica tells the others when it received a verified push (pure): the data version
 * its NOTIFY carries, the event name the API gave (a hint of which lists changed, or null), and
 * which replica sent it (so that it ignores its own). Never data: a replica that hears it reads
 * the API itself, as after a push of its own. A payload that does not read as one is a change of
 * unknown kind (every list read again), never trusted further.
 */

/** The PostgreSQL channel the replicas LISTEN on. */
export const FANOUT_CHANNEL = 'porchlight_site_push';

export interface FanoutMessage {
  /** The version site_events had after this notification's bump. */
  version: number;
  /** The push's event name (X-Porchlight-Event), when it gave a plausible one. */
  event: string | null;
  /** The sending replica's id (random per process). */
  replica: string;
}

const EVENT_NAME = /^on[A-Za-z]{1,40}$/;
const REPLICA = /^[A-Za-z0-9_-]{1,64}$/;

export function encodeFanoutMessage(message: FanoutMessage): string {
  return JSON.stringify({ v: message.version, e: message.event, r: message.replica });
}

/** The message in a payload, or null when it is not one (read then as "something changed"). */
export function parseFanoutMessage(payload: string): FanoutMessage | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { v, e, r } = parsed as Record<string, unknown>;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) return null;
  if (typeof r !== 'string' || !REPLICA.test(r)) return null;
  if (e !== null && (typeof e !== 'string' || !EVENT_NAME.test(e))) return null;
  return { version: v, event: e, replica: r };
}

/**
 * The slow poll's verdict (the safety net under LISTEN): a version newer than the newest this
 * replica handled is a missed notification only once it has stayed unhandled for `graceMs` (a
 * notification still on its way is not a miss, and resyncing for it would read every list twice).
 */
export function pollVerdict(options: { seen: number; handled: number; behindSince: number | null; nowMs: number; graceMs: number }): { resync: boolean; behindSince: number | null } {
  if (options.seen <= options.handled) return { resync: false, behindSince: null };
  const since = options.behindSince ?? options.nowMs;
  if (options.nowMs - since >= options.graceMs) return { resync: true, behindSince: null };
  return { resync: false, behindSince: since };
}
