/**
 * The replica that received a verified push tells the others: one transaction bumps the data
 * version (site_events) and NOTIFYs it with the event's name. PostgreSQL delivers a NOTIFY at
 * commit, so a listener that hears it reads a version already stored, and the slow poll
 * (version-poll.ts) of a replica that missed it finds the same version.
 */
import type { Database } from '../../store/database.ts';
import { readRow } from '../../store/rows.ts';
import { encodeFanoutMessage, FANOUT_CHANNEL } from './fanout-message.ts';

/** Bumps the version and notifies it; resolves to the new version. */
export async function notifyReplicas(db: Database, replica: string, event: string | null): Promise<number> {
  return db.transaction(async (tx) => {
    const row = await tx.get('UPDATE site_events SET version = version + 1 WHERE id = 1 RETURNING version');
    if (!row) throw new Error('site_events has no row: the site store is not migrated');
    const version = readRow('site_events', row).int('version');
    await tx.run('SELECT pg_notify(?, ?)', FANOUT_CHANNEL, encodeFanoutMessage({ version, event, replica }));
    return version;
  });
}
