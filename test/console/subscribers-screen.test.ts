import { describe, expect, it } from 'vitest';
import { confirmedCsv, countsByPage } from '../../src/console/subscribers-screen.ts';
import type { Subscriber } from '../../src/subscribers/store.ts';

const base = { components: [], createdAt: Date.UTC(2026, 10, 1), locale: null, endpointUrl: null, signingSecret: null, contactEmail: null, viewerId: null };
const subscribers: Subscriber[] = [
  { ...base, id: 's1', pageId: 'pg_a', email: 'ada@example.com', state: 'confirmed', channel: 'email', locale: 'fr' },
  { ...base, id: 's2', pageId: 'pg_a', email: 'bob@example.com', state: 'pending', channel: 'email' },
  { ...base, id: 's3', pageId: 'pg_a', email: '=cmd@example.com', state: 'bouncing', channel: 'email' },
  { ...base, id: 's4', pageId: 'pg_a', email: '', state: 'confirmed', channel: 'webhook', endpointUrl: 'https://hooks.example.com/x' },
  { ...base, id: 's5', pageId: 'pg_b', email: 'cy@example.com', state: 'confirmed', channel: 'email' },
];

describe('the console\'s subscribers screen', () => {
  it('counts confirmed (bouncing included) and waiting subscribers per page', () => {
    expect(Object.fromEntries(countsByPage(subscribers))).toEqual({ pg_a: { confirmed: 3, pending: 1 }, pg_b: { confirmed: 1, pending: 0 } });
  });

  it('exports one page\'s confirmed e-mail addresses only, a formula-looking cell defused', () => {
    expect(confirmedCsv(subscribers, 'pg_a')).toBe('email,subscribed_at,locale\r\nada@example.com,2026-11-01T00:00:00.000Z,fr\r\n"\'=cmd@example.com",2026-11-01T00:00:00.000Z,\r\n');
    expect(confirmedCsv(subscribers, 'pg_none')).toBe('email,subscribed_at,locale\r\n');
  });
});
