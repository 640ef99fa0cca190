/**
 * Operators' passkeys (WebAuthn credentials) and the challenges handed to browsers for them, in
 * the console's store (migration 3). Challenges live in the database rather than in memory: behind
 * a load balancer the replica that verifies the answer need not be the one that asked. A challenge
 * is stored as its SHA-256 only, bound to a session or a pre-session CSRF token (also hashed), and
 * used up by a guarded UPDATE, so one answer is accepted once on whichever replica gets it.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../store/database.ts';
import { readRow, type Row } from '../store/rows.ts';
import { storedTime } from '../store/time.ts';

/** A challenge is answered within five minutes (a person with an authenticator, not a script). */
export const CHALLENGE_TTL_MS = 5 * 60_000;

export const CHALLENGE_PURPOSES = ['register', 'sign-in'] as const;
export type ChallengePurpose = (typeof CHALLENGE_PURPOSES)[number];

export interface Passkey {
  /** base64url, as WebAuthn's JSON forms carry it. */
  credentialId: string;
  operatorId: string;
  /** The name its operator gave it ('' for one registered before labels, migration 4). */
  label: string;
  /** base64url of the COSE public key. */
  publicKey: string;
  counter: number;
  transports: string[];
  createdAt: number;
  lastUsedAt: number | null;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const COLUMNS = 'credential_id, operator_id, label, public_key, counter, transports_json, created_at, last_used_at';

function transportsOf(text: string): string[] {
  try {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

function passkey(row: Row): Passkey {
  const read = readRow('passkeys', row);
  return {
    credentialId: read.text('credential_id'),
    operatorId: read.text('operator_id'),
    label: read.text('label'),
    publicKey: read.text('public_key'),
    counter: read.int('counter'),
    transports: transportsOf(read.text('transports_json')),
    createdAt: read.time('created_at'),
    lastUsedAt: read.timeOrNull('last_used_at'),
  };
}

/** What the audit trail keeps of a passkey (console and CLI): its label and credential id, never its key. */
export const passkeyAuditValue = (key: { label: string; credentialId: string }) => ({ label: key.label, credentialId: key.credentialId });

export class PasskeyExistsError extends Error {
  override name = 'PasskeyExistsError';
}

export class PasskeyStore {
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }

  /** A fresh challenge (base64url, 32 random bytes) for `purpose`, bound to `binding`. */
  async issueChallenge(purpose: ChallengePurpose, binding: string, now: number): Promise<string> {
    const challenge = randomBytes(32).toString('base64url');
    // Expired challenges go as new ones come: the table stays as small as the live ones.
    await this.#db.run('DELETE FROM passkey_challenges WHERE expires_at <= ?', storedTime(now));
    await this.#db.run('INSERT INTO passkey_challenges (challenge_hash, purpose, binding_hash, expires_at, used) VALUES (?, ?, ?, ?, 0)', sha256(challenge), purpose, sha256(binding), storedTime(now + CHALLENGE_TTL_MS));
    return challenge;
  }

  /**
   * Uses up a challenge: true only once, only for its purpose and binding, only before it expires.
   * The guarded UPDATE makes two replicas verifying the same answer at once get one true between them.
   */
  async consumeChallenge(challenge: string, purpose: ChallengePurpose, binding: string, now: number): Promise<boolean> {
    const result = await this.#db.run(
      'UPDATE passkey_challenges SET used = 1 WHERE challenge_hash = ? AND purpose = ? AND binding_hash = ? AND used = 0 AND expires_at > ?',
      sha256(challenge), purpose, sha256(binding), storedTime(now),
    );
    return result.changes > 0;
  }

  async add(entry: { credentialId: string; operatorId: string; label?: string; publicKey: string; counter: number; transports: readonly string[] }, now: number): Promise<Passkey> {
    const row = await this.#db.get(
      `INSERT INTO passkeys (credential_id, operator_id, label, public_key, counter, transports_json, created_at, last_used_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, NULL) ON CONFLICT (credential_id) DO NOTHING RETURNING ${COLUMNS}`,
      entry.credentialId, entry.operatorId, entry.label ?? '', entry.publicKey, entry.counter, JSON.stringify(entry.transports), storedTime(now),
    );
    if (!row) throw new PasskeyExistsError('this passkey is registered already');
    return passkey(row);
  }

  async find(credentialId: string): Promise<Passkey | null> {
    const row = await this.#db.get(`SELECT ${COLUMNS} FROM passkeys WHERE credential_id = ?`, credentialId);
    return row ? passkey(row) : null;
  }

  /** An operator's passkeys, oldest first. */
  async ofOperator(operatorId: string): Promise<Passkey[]> {
    return (await this.#db.all(`SELECT ${COLUMNS} FROM passkeys WHERE operator_id = ? ORDER BY created_at, credential_id`, operatorId)).map(passkey);
  }

  /**
   * Records a verified sign-in's counter. Refused (false) unless the counter went up, or both the
   * stored and the new one are 0 (an authenticator that keeps no counter): a counter that did not
   * increase hints at a cloned authenticator. Guarded, so a replayed assertion raced against the
   * real one cannot both pass.
   */
  async recordUse(credentialId: string, newCounter: number, now: number): Promise<boolean> {
    // Chosen here rather than as `? = 0` in SQL: PostgreSQL would type that parameter integer, too small for a 32-bit unsigned counter.
    const increased = newCounter === 0 ? 'counter = 0' : 'counter < ?';
    const params = newCounter === 0 ? [] : [newCounter];
    const result = await this.#db.run(`UPDATE passkeys SET counter = ?, last_used_at = ? WHERE credential_id = ? AND ${increased}`, newCounter, storedTime(now), credentialId, ...params);
    return result.changes > 0;
  }

  /** Removes one of the operator's own passkeys; the removed one, or null when it is not theirs. */
  async remove(operatorId: string, credentialId: string): Promise<Passkey | null> {
    const row = await this.#db.get(`DELETE FROM passkeys WHERE credential_id = ? AND operator_id = ? RETURNING ${COLUMNS}`, credentialId, operatorId);
    return row ? passkey(row) : null;
  }
}
