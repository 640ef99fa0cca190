import { describe, expect, it } from 'vitest';
import { LABEL_MAX, passkeyLabel, registrationAnswer, signInAnswer, throttleAccount } from '../../src/console/passkey-forms.ts';
import { PASSKEY_SCRIPT, passkeyPagePolicy } from '../../src/console/passkey-script.ts';
import { passkeyRelyingParty } from '../../src/console/passkey-routes.ts';
import { passkeysView } from '../../src/console/passkeys-view.ts';
import type { ViewContext } from '../../src/console/views.ts';
import { translator } from '../../src/site/i18n/translator.ts';
import { en } from '../../src/site/i18n/messages/en.ts';

const registration = {
  id: 'Y3JlZA',
  rawId: 'Y3JlZA',
  type: 'public-key',
  authenticatorAttachment: 'platform',
  clientExtensionResults: { credProps: { rk: true } },
  response: { clientDataJSON: 'eyJ9', attestationObject: 'o2Nm', transports: ['internal', 'warp-drive'] },
};
const assertion = { id: 'Y3JlZA', rawId: 'Y3JlZA', type: 'public-key', clientExtensionResults: {}, response: { clientDataJSON: 'eyJ9', authenticatorData: 'SZYN', signature: 'MEUC', userHandle: 'b3BfMQ' } };

describe('passkey labels', () => {
  it('trims and keeps 1 to LABEL_MAX characters, counted as characters, not UTF-16 units', () => {
    expect(passkeyLabel('  Work laptop ')).toBe('Work laptop');
    expect(passkeyLabel('🔑'.repeat(LABEL_MAX))).toBe('🔑'.repeat(LABEL_MAX));
    expect(passkeyLabel('a'.repeat(LABEL_MAX + 1))).toBeNull();
  });

  it('refuses an empty label, a missing one and control characters', () => {
    expect(passkeyLabel('   ')).toBeNull();
    expect(passkeyLabel(null)).toBeNull();
    expect(passkeyLabel('line\nbreak')).toBeNull();
  });
});

describe('the browser\'s answers', () => {
  it('reads a registration answer, keeping known transports and dropping extension results', () => {
    expect(registrationAnswer(JSON.stringify(registration))).toEqual({
      id: 'Y3JlZA',
      rawId: 'Y3JlZA',
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: { clientDataJSON: 'eyJ9', attestationObject: 'o2Nm', transports: ['internal'] },
    });
  });

  it('reads a sign-in answer with its user handle', () => {
    expect(signInAnswer(JSON.stringify(assertion))).toMatchObject({ id: 'Y3JlZA', response: { signature: 'MEUC', userHandle: 'b3BfMQ' } });
  });

  it('refuses what is not JSON, the other ceremony\'s answer, another type, or a field that is not base64url', () => {
    expect(registrationAnswer('{')).toBeNull();
    expect(registrationAnswer(null)).toBeNull();
    expect(registrationAnswer(JSON.stringify(assertion))).toBeNull();
    expect(signInAnswer(JSON.stringify(registration))).toBeNull();
    expect(signInAnswer(JSON.stringify({ ...assertion, type: 'password' }))).toBeNull();
    expect(signInAnswer(JSON.stringify({ ...assertion, response: { ...assertion.response, signature: 'ME+C/==' } }))).toBeNull();
    expect(signInAnswer(JSON.stringify({ ...assertion, id: 'x'.repeat(20_000) }))).toBeNull();
  });
});

describe('the throttle\'s account for a passkey sign-in', () => {
  it('is the operator\'s address when the passkey is known (as for a password), else the claimed credential', () => {
    expect(throttleAccount('ada@example.com', 'Y3JlZA')).toBe('ada@example.com');
    expect(throttleAccount(null, 'Y3JlZA')).toBe('passkey:Y3JlZA');
  });
});

describe('where passkeys are offered', () => {
  it('on a host name (localhost included), never on an IP address or without SITE_PUBLIC_URL', () => {
    expect(passkeyRelyingParty(new URL('https://status.example.com'))).toEqual({ id: 'status.example.com', origin: 'https://status.example.com', name: 'Porchlight' });
    expect(passkeyRelyingParty(new URL('http://localhost:4100'))?.id).toBe('localhost');
    expect(passkeyRelyingParty(new URL('http://127.0.0.1:4100'))).toBeNull();
    expect(passkeyRelyingParty(new URL('http://[::1]:4100'))).toBeNull();
    expect(passkeyRelyingParty(null)).toBeNull();
  });
});

describe('the console\'s script and its policy', () => {
  it('is allowed by its address alone, with fetches to the same origin', () => {
    const policy = passkeyPagePolicy("default-src 'none'", 'https://status.example.com', '/_porchlight/console/passkeys.js');
    expect(policy).toBe("default-src 'none'; script-src https://status.example.com/_porchlight/console/passkeys.js; connect-src 'self'");
  });

  it('is small and evaluates nothing it is given', () => {
    expect(Buffer.byteLength(PASSKEY_SCRIPT)).toBeLessThan(4_096);
    expect(PASSKEY_SCRIPT).not.toMatch(/\beval\b|new Function|innerHTML/);
  });
});

describe('the passkeys screen', () => {
  const i18n = translator('en', 'UTC');
  const ctx: ViewContext = { i18n, operator: { id: 'op_1', email: 'ada@example.com', role: 'viewer', hasPassword: true, createdAt: 0 }, csrf: 'token' };
  const key = { credentialId: 'Y3JlZA', operatorId: 'op_1', label: '<b>Laptop</b>', publicKey: 'AAAA', counter: 0, transports: [], createdAt: Date.UTC(2026, 10, 28, 9), lastUsedAt: null };

  it('lists passkeys with their names escaped, a removal form each, and a hidden registration form with the needs-JavaScript note', () => {
    const page = passkeysView(ctx, [key], true, null);
    expect(page).toContain('&lt;b&gt;Laptop&lt;/b&gt;');
    expect(page).not.toContain('<b>Laptop</b>');
    expect(page).toMatch(/<form class="inline" method="post" action="\/_porchlight\/console\/passkeys\/remove"><input type="hidden" name="csrf" value="token"><input type="hidden" name="credential" value="Y3JlZA">/);
    expect(page).toMatch(/<form method="post" action="\/_porchlight\/console\/passkeys" data-passkey="register" data-options="\/_porchlight\/console\/passkeys\/options" [^>]* hidden>/);
    expect(page).toContain(en['console.passkeys.needsJs']);
    expect(page).toContain('<script src="/_porchlight/console/passkeys.js" defer></script>');
    expect(page).toContain(en['console.passkeys.never']);
  });

  it('without a relying party lists and removes, registers nothing, loads no script and says why', () => {
    const page = passkeysView(ctx, [], false, null);
    expect(page).toContain(en['console.passkeys.none']);
    expect(page).toContain(en['console.passkeys.unavailable']);
    expect(page).not.toContain('data-passkey=');
    expect(page).not.toContain('<script');
  });
});
