import { describe, expect, it } from 'vitest';
import { classifyFailure } from '../../src/subscribers/mail-transport.ts';

describe('classifyFailure', () => {
  it('blames the address only for a 5xx to RCPT TO', () => {
    expect(classifyFailure({ responseCode: 550, command: 'RCPT TO' })).toEqual({ outcome: 'permanent' });
    expect(classifyFailure({ responseCode: 451, command: 'RCPT TO' })).toEqual({ outcome: 'retry', unreachable: false });
  });

  it('waits out the server: unreachable, 421, or a refused login, sender or message', () => {
    expect(classifyFailure(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ESOCKET' }))).toEqual({ outcome: 'retry', unreachable: true });
    expect(classifyFailure({ responseCode: 421, command: 'MAIL FROM' })).toEqual({ outcome: 'retry', unreachable: true });
    expect(classifyFailure({ responseCode: 535, command: 'AUTH PLAIN', code: 'EAUTH' })).toEqual({ outcome: 'retry', unreachable: true });
    expect(classifyFailure({ responseCode: 553, command: 'MAIL FROM' })).toEqual({ outcome: 'retry', unreachable: true });
  });
});
