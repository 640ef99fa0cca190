import { describe, expect, it } from 'vitest';
import { signOutTokenIsRight, viewerControls } from '../../src/site/private/viewer-controls.ts';

const SESSION = 'A'.repeat(43);
const OTHER = 'B'.repeat(43);

describe('viewer controls', () => {
  it('links the viewer to their own feed addresses page, under the site path', () => {
    expect(viewerControls({ sitePath: '', slug: 'internal', sessionToken: SESSION, granted: true }).feedsHref).toBe('/_porchlight/private/internal/feeds');
    expect(viewerControls({ sitePath: '/status', slug: 'internal', sessionToken: SESSION, granted: true }).feedsHref).toBe('/status/_porchlight/private/internal/feeds');
  });

  it('offers no feed addresses page to a visitor without a grant (let in by address alone)', () => {
    expect(viewerControls({ sitePath: '', slug: 'internal', sessionToken: null, granted: false }).feedsHref).toBeNull();
    expect(viewerControls({ sitePath: '', slug: 'internal', sessionToken: SESSION, granted: false }).feedsHref).toBeNull();
  });

  it('offers sign-out only to a visitor with a session', () => {
    expect(viewerControls({ sitePath: '', slug: 'internal', sessionToken: null, granted: false }).signOut).toBeNull();
    expect(viewerControls({ sitePath: '', slug: 'internal', sessionToken: SESSION, granted: true }).signOut?.action).toBe('/_porchlight/private/sign-out');
  });

  it("accepts the sign-out token of the session's own cookie only", () => {
    const csrf = viewerControls({ sitePath: '', slug: 'internal', sessionToken: SESSION, granted: true }).signOut!.csrf;
    expect(signOutTokenIsRight(SESSION, csrf)).toBe(true);
    expect(signOutTokenIsRight(OTHER, csrf)).toBe(false);
    expect(signOutTokenIsRight(null, csrf)).toBe(false);
    expect(signOutTokenIsRight(SESSION, null)).toBe(false);
    expect(signOutTokenIsRight(SESSION, `${csrf}x`)).toBe(false);
    // Not another form's token for the same session.
    expect(signOutTokenIsRight(SESSION, viewerControls({ sitePath: '', slug: 'other', sessionToken: OTHER, granted: true }).signOut!.csrf)).toBe(false);
  });

  it('offers the e-mail subscription form to a granted viewer with a session, when subscriptions run', () => {
    expect(viewerControls({ sitePath: '/status', slug: 'internal', sessionToken: SESSION, granted: true, subscriptions: true }).subscribeAction).toBe('/status/internal/subscribe');
    expect(viewerControls({ sitePath: '', slug: 'internal', sessionToken: SESSION, granted: true, subscriptions: false }).subscribeAction).toBeNull();
    expect(viewerControls({ sitePath: '', slug: 'internal', sessionToken: SESSION, granted: false, subscriptions: true }).subscribeAction).toBeNull();
    expect(viewerControls({ sitePath: '', slug: 'internal', sessionToken: null, granted: false, subscriptions: true }).subscribeAction).toBeNull();
  });
});
