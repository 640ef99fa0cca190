import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readCappedBody } from '../../../src/service/checks/read-capped-body.ts';

describe('readCappedBody', () => {
  it('reads a small body whole', async () => {
    expect(await readCappedBody(Readable.from([Buffer.from('hello '), Buffer.from('world')]))).toBe('hello world');
  });

  it('stops at the limit and destroys the rest of the stream', async () => {
    let produced = 0;
    const stream = new Readable({
      read() {
        produced += 1;
        this.push(Buffer.from('0123456789'));
      },
    });
    const text = await readCappedBody(stream, 25);
    expect(text).toBe('0123456789012345678901234');
    expect(stream.destroyed).toBe(true);
    expect(produced).toBeLessThan(10);
  });

  it('decodes UTF-8, replacing a character cut at the limit', async () => {
    const text = await readCappedBody(Readable.from([Buffer.from('héllo')]), 2);
    expect(text).toBe('h\uFFFD');
  });
});
