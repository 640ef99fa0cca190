import { describe, expect, it } from 'vitest';
import { consoleGate } from '../../src/console/gate.ts';
import { isLoopbackAddress } from '../../src/auth/session-cookie.ts';
import { negotiateLocale } from '../../src/console/language.ts';
import { may, ROLES } from '../../src/console/roles.ts';
import { fromLocalField, toLocalField } from '../../src/console/handler.ts';
import { html, trusted } from '../../src/console/html.ts';
import { isConsoleTarget } from '../../src/console/paths.ts';
import { parseTemplate, templatePlaceholders } from '../../src/cli/templates.ts';

describe('console gate', () => {
  const https = { publicUrl: new URL('https://status.example.com'), port: 4321, allowHttp: false };
  it('answers only on SITE_PUBLIC_URL\'s host: a custom domain or another name is 404', () => {
    expect(consoleGate(https, 'status.example.com', '203.0.113.1')).toEqual({ ok: true, origin: 'https://status.example.com', secure: true });
    expect(consoleGate(https, 'STATUS.example.com', '203.0.113.1').ok).toBe(true);
    expect(consoleGate(https, 'status.acme.test', '203.0.113.1')).toEqual({ ok: false, status: 404 });
    expect(consoleGate(https, undefined, '127.0.0.1')).toEqual({ ok: false, status: 404 });
  });
  it('refuses plain HTTP from anything but loopback unless opted in', () => {
    const http = { publicUrl: new URL('http://status.example.com'), port: 4321, allowHttp: false };
    expect(consoleGate(http, 'status.example.com', '203.0.113.1')).toEqual({ ok: false, status: 403 });
    expect(consoleGate(http, 'status.example.com', '127.0.0.1')).toEqual({ ok: true, origin: 'http://status.example.com', secure: false });
    expect(consoleGate({ ...http, allowHttp: true }, 'status.example.com', '203.0.113.1').ok).toBe(true);
  });
  it('without SITE_PUBLIC_URL, answers loopback names of its port from loopback only', () => {
    const local = { publicUrl: null, port: 4321, allowHttp: false };
    expect(consoleGate(local, 'localhost:4321', '::1')).toEqual({ ok: true, origin: 'http://localhost:4321', secure: false });
    expect(consoleGate(local, 'example.com', '127.0.0.1')).toEqual({ ok: false, status: 404 });
    expect(consoleGate(local, '127.0.0.1:4321', '198.51.100.4')).toEqual({ ok: false, status: 403 });
  });
  it('knows loopback addresses, IPv4-mapped included', () => {
    expect(['127.0.0.1', '127.3.2.1', '::1', '::ffff:127.0.0.1'].every(isLoopbackAddress)).toBe(true);
    expect(['10.0.0.1', '::ffff:10.0.0.1', '1127.0.0.1', undefined].some(isLoopbackAddress)).toBe(false);
  });
  it('claims its own prefix only', () => {
    expect(isConsoleTarget('/_porchlight/console/')).toBe(true);
    expect(isConsoleTarget('/_porchlight/console')).toBe(true);
    expect(isConsoleTarget('/_porchlight/console/sign-in?x=1')).toBe(true);
    expect(isConsoleTarget('/_porchlight/consoles')).toBe(false);
    expect(isConsoleTarget('/acme/_porchlight/console/')).toBe(false);
  });
});

describe('roles', () => {
  it('include the ones before them', () => {
    expect(ROLES.filter((role) => may(role, 'incidents'))).toEqual(['responder', 'editor', 'admin']);
    expect(ROLES.filter((role) => may(role, 'branding'))).toEqual(['editor', 'admin']);
    expect(ROLES.filter((role) => may(role, 'operators'))).toEqual(['admin']);
    expect(ROLES.every((role) => may(role, 'read'))).toBe(true);
  });
});

describe('console language', () => {
  it('takes the browser\'s first language the catalogs have, by quality', () => {
    expect(negotiateLocale('ar-EG,ar;q=0.9,en;q=0.8', 'en')).toBe('ar');
    expect(negotiateLocale('sv-SE,de;q=0.5,fr;q=0.7', 'en')).toBe('fr');
    expect(negotiateLocale('pt-PT', 'en')).toBe('pt-BR');
    expect(negotiateLocale('zh-TW,zh;q=0.9', 'en')).toBe('zh-CN');
    expect(negotiateLocale('sv', 'de')).toBe('de');
    expect(negotiateLocale(undefined, 'en')).toBe('en');
  });
});

describe('console fields and markup', () => {
  it('reads datetime-local fields as UTC', () => {
    expect(fromLocalField('2030-01-05T10:00')).toBe('2030-01-05T10:00:00.000Z');
    expect(fromLocalField('2030-01-05')).toBeNull();
    expect(fromLocalField(null)).toBeNull();
    expect(toLocalField('2030-01-05T10:00:00.000Z')).toBe('2030-01-05T10:00');
  });
  it('escapes every outside value, leaving only the module\'s own markup', () => {
    const evil = '<script>alert(1)</script>" onmouseover="x';
    expect(html`<p title="${evil}">${evil}</p>`.text).toBe('<p title="&lt;script&gt;alert(1)&lt;/script&gt;&quot; onmouseover=&quot;x">&lt;script&gt;alert(1)&lt;/script&gt;&quot; onmouseover=&quot;x</p>');
    expect(html`<ul>${['<a>', html`<li>${'&'}</li>`]}</ul>${trusted(' checked')}`.text).toBe('<ul>&lt;a&gt;<li>&amp;</li></ul> checked');
  });
  it('finds a template\'s placeholders (the CLI\'s templates, one source)', () => {
    const template = parseTemplate('---\ntitle: Outage in {region}\nseverity: major\nmonitors: [{db} primary]\n---\nIn {region}, {{literal}} braces; ask {team}.', 't');
    expect(templatePlaceholders(template)).toEqual(['region', 'team', 'db']);
  });
});
