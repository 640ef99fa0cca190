/**
 * Which egress policy each organization's checks and webhooks are held to. The allowance is per
 * organization, never per store: a demo store is still multi-tenant, and an organization created
 * beside the demo (`npm run create-org`) must not inherit the demo's loopback allowance.
 */
import { EgressPolicy, type Resolver } from './egress-policy.ts';

/** Who may reach private targets: everyone (ALLOW_PRIVATE_TARGETS=true), only the demo organization (unset), no one (false). */
export type PrivateTargets = 'all' | 'demo' | 'none';

export interface OrganizationEgressOptions {
  /** ALLOW_PRIVATE_TARGETS; undefined (unset): only the demo organization. */
  allowPrivate: boolean | undefined;
  /** The organization the demo seed created (recorded in `demo_meta`), if the store holds one. */
  demoOrganizationId: string | null;
  resolver?: Resolver | undefined;
}

export class OrganizationEgress {
  readonly privateTargets: PrivateTargets;
  private readonly demoOrganizationId: string | null;
  private readonly open: EgressPolicy;
  private readonly strict: EgressPolicy;

  constructor(options: OrganizationEgressOptions) {
    const resolver = options.resolver ? { resolver: options.resolver } : {};
    this.demoOrganizationId = options.demoOrganizationId;
    this.privateTargets = options.allowPrivate === true ? 'all' : options.allowPrivate === undefined && this.demoOrganizationId !== null ? 'demo' : 'none';
    this.open = new EgressPolicy({ allowPrivate: true, ...resolver });
    this.strict = new EgressPolicy({ allowPrivate: false, ...resolver });
  }

  /** The policy an organization's monitors and channels are judged by, when saved and when connecting. */
  for(organizationId: string): EgressPolicy {
    if (this.privateTargets === 'all') return this.open;
    if (this.privateTargets === 'demo' && organizationId === this.demoOrganizationId) return this.open;
    return this.strict;
  }

  /** Allows the origin of a URL to every organization (the site this service was started for: its push channel posts there). */
  trustOrigin(url: string): void {
    this.strict.trustOrigin(url);
  }
}

/** What the process says at start about private targets; null when no organization may reach them. */
export function privateTargetsNotice(privateTargets: PrivateTargets): string | null {
  if (privateTargets === 'all') return 'Checks and webhooks of every organization may reach loopback and private addresses (ALLOW_PRIVATE_TARGETS=true): for a single organization only';
  if (privateTargets === 'demo') return "The demo organization's checks and webhooks may reach loopback and private addresses (its monitors check this machine); every other organization is held to the egress policy";
  return null;
}
