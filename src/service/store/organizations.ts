import { createHash, randomBytes } from 'node:crypto';
import type { Plan } from '../../contract/organization.ts';
import type { Sql } from '../../store/database.ts';
import { newId } from '../../store/ids.ts';
import { bit, flag, int, text, textOrNull, type Row, fromTable } from './rows.ts';

export interface OrganizationRecord {
  id: string;
  name: string;
  slug: string;
  logo: string | null;
  createdAt: string;
  subscriptionActive: boolean;
  subscriptionPlanName: string;
  cancelAtPeriodEnd: boolean;
  /** Derived: `pro` while the subscription is active, else `free`. */
  plan: Plan;
}

/** The caller behind a request: the organization and which key it used. */
export interface Principal {
  organization: OrganizationRecord;
  apiKeyId: string;
}

/** API keys: `pl_` + 32 random base64url characters (24 random bytes). */
export function generateApiKey(): string {
  return `pl_${randomBytes(24).toString('base64url')}`;
}

export function hashApiKey(apiKey: string): string {
  return createHash('sha256').update(apiKey, 'utf8').digest('hex');
}

function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48);
  return slug || 'org';
}

function toOrganization(row: Row): OrganizationRecord {
  return fromTable('organizations', () => {
    const subscriptionActive = flag(row, 'subscription_active');
    return {
      id: text(row, 'id'),
      name: text(row, 'name'),
      slug: text(row, 'slug'),
      logo: textOrNull(row, 'logo'),
      createdAt: text(row, 'created_at'),
      subscriptionActive,
      subscriptionPlanName: text(row, 'subscription_plan_name'),
      cancelAtPeriodEnd: flag(row, 'cancel_at_period_end'),
      plan: subscriptionActive ? 'pro' : 'free',
    };
  });
}

export class OrganizationRepository {
  private readonly db: Sql;

  constructor(db: Sql) {
    this.db = db;
  }

  /**
   * Locks the organization's row until the transaction ends (a write that changes nothing): a
   * count-then-insert under a per-organization limit, done after it, is one at a time per
   * organization across processes under READ COMMITTED. False when there is no such organization.
   */
  async lock(id: string): Promise<boolean> {
    return (await this.db.run('UPDATE organizations SET name = name WHERE id = ?', id)).changes > 0;
  }

  async count(): Promise<number> {
    const row = await this.db.get('SELECT COUNT(*) AS n FROM organizations');
    return row ? int(row, 'n') : 0;
  }

  async get(id: string): Promise<OrganizationRecord | null> {
    const row = await this.db.get('SELECT * FROM organizations WHERE id = ?', id);
    return row ? toOrganization(row) : null;
  }

  /** Finds who holds `apiKey`; only its SHA-256 hash is ever stored or compared. */
  async findByApiKey(apiKey: string): Promise<Principal | null> {
    const row = (await this.db.get(`SELECT o.*, k.id AS api_key_id FROM api_keys k
         JOIN organizations o ON o.id = k.organization_id WHERE k.key_hash = ?`, hashApiKey(apiKey)));
    return row ? { organization: toOrganization(row), apiKeyId: text(row, 'api_key_id') } : null;
  }

  /**
   * Creates an organization (plan pro = active subscription) and its first key; returns the plaintext
   * key once. Run it in a transaction (Store.transaction), so that both rows land or neither does.
   */
  async create(input: { name: string; plan: Plan }, now: Date): Promise<{ organization: OrganizationRecord; apiKey: string }> {
    {
      const id = newId('org');
      const createdAt = now.toISOString();
      await this.db.run(`INSERT INTO organizations (id, name, slug, logo, subscription_active, subscription_plan_name, cancel_at_period_end, created_at)
           VALUES (?, ?, ?, NULL, ?, ?, 0, ?)`, id, input.name, await this.uniqueSlug(slugify(input.name)), bit(input.plan === 'pro'), input.plan === 'pro' ? 'Pro' : 'Free', createdAt);
      const apiKey = await this.addApiKey(id, now);
      const organization = await this.get(id);
      if (!organization) throw new Error('organization vanished inside its own transaction');
      return { organization, apiKey };
    }
  }

  async addApiKey(organizationId: string, now: Date): Promise<string> {
    const apiKey = generateApiKey();
    await this.db.run('INSERT INTO api_keys (id, organization_id, key_hash, created_at) VALUES (?, ?, ?, ?)', newId('key'), organizationId, hashApiKey(apiKey), now.toISOString());
    return apiKey;
  }

  private async uniqueSlug(base: string): Promise<string> {
    const taken = async (slug: string) => (await this.db.get('SELECT 1 AS hit FROM organizations WHERE slug = ?', slug)) !== undefined;
    let candidate = base;
    for (let suffix = 2; await taken(candidate); suffix++) candidate = `${base}-${suffix}`;
    return candidate;
  }
}

/** Demo-only plaintext key storage for the seeded demo organization (real keys are hash-only). */
export class DemoMetaRepository {
  private readonly db: Sql;

  constructor(db: Sql) {
    this.db = db;
  }

  async save(organizationId: string, apiKey: string, now: Date): Promise<void> {
    await this.db.run('INSERT INTO demo_meta (organization_id, api_key, created_at) VALUES (?, ?, ?)', organizationId, apiKey, now.toISOString());
  }

  async find(): Promise<{ organizationId: string; apiKey: string } | null> {
    const row = await this.db.get('SELECT organization_id, api_key FROM demo_meta ORDER BY created_at LIMIT 1');
    return row ? { organizationId: text(row, 'organization_id'), apiKey: text(row, 'api_key') } : null;
  }
}
