import { describe, expect, it } from 'vitest';
import { OrganizationEgress, privateTargetsNotice } from '../../../src/service/egress/organization-egress.ts';

const DEMO = 'org_demo';
const OTHER = 'org_other';
const loopback = 'http://127.0.0.1:4322/api/v1/organization';

describe('OrganizationEgress', () => {
  it('unset: opens private targets to the demo organization only', () => {
    const egress = new OrganizationEgress({ allowPrivate: undefined, demoOrganizationId: DEMO });
    expect(egress.privateTargets).toBe('demo');
    expect(egress.for(DEMO).urlRefusal(loopback)).toBeNull();
    expect(egress.for(OTHER).urlRefusal(loopback)).toMatch(/^127\.0\.0\.1 is not a public address \(loopback\)/);
    expect(egress.for(OTHER).refusal('169.254.169.254', 80)).toMatch(/link-local/);
  });

  it('unset without a demo organization, or false: opens them to no one; true: to everyone', () => {
    const none = [new OrganizationEgress({ allowPrivate: undefined, demoOrganizationId: null }), new OrganizationEgress({ allowPrivate: false, demoOrganizationId: DEMO })];
    for (const egress of none) {
      expect(egress.privateTargets).toBe('none');
      expect([egress.for(DEMO).urlRefusal(loopback), egress.for(OTHER).urlRefusal(loopback)]).toEqual([expect.any(String), expect.any(String)]);
    }
    const all = new OrganizationEgress({ allowPrivate: true, demoOrganizationId: DEMO });
    expect(all.privateTargets).toBe('all');
    expect([all.for(DEMO).urlRefusal(loopback), all.for(OTHER).urlRefusal(loopback)]).toEqual([null, null]);
  });

  it("trusts the site's origin for every organization held to the policy, and nothing beside it", () => {
    const egress = new OrganizationEgress({ allowPrivate: undefined, demoOrganizationId: DEMO });
    egress.trustOrigin('http://127.0.0.1:4321');
    expect(egress.for(OTHER).urlRefusal('http://127.0.0.1:4321/_porchlight/push/token')).toBeNull();
    expect(egress.for(OTHER).urlRefusal('http://127.0.0.1:4322/')).not.toBeNull();
  });

  it('says at start who may reach private targets', () => {
    expect(privateTargetsNotice('all')).toMatch(/every organization/);
    expect(privateTargetsNotice('demo')).toMatch(/^The demo organization's .* every other organization is held to the egress policy$/);
    expect(privateTargetsNotice('none')).toBeNull();
  });
});
