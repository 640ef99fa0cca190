import { describe, expect, it } from 'vitest';
import { csvCell, csvTable } from '../../src/subscribers/csv.ts';

describe('csvCell', () => {
  it('leaves a plain cell as it is and quotes one with a quote, comma or line break', () => {
    expect(csvCell('alice@example.com')).toBe('alice@example.com');
    expect(csvCell('')).toBe('');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
  });

  it('turns a formula-looking cell into text a spreadsheet will not run', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) expect(csvCell(`${start}HYPERLINK("x")`)).toBe(`"'${start}HYPERLINK(""x"")"`);
    // Only at the start: inside a cell these are plain text.
    expect(csvCell('a=b')).toBe('a=b');
  });
});

describe('csvTable', () => {
  it('writes a header and rows, each line ending in CRLF', () => {
    expect(csvTable(['email', 'locale'], [['ada@example.com', 'fr'], ['=cmd@example.com', '']])).toBe('email,locale\r\nada@example.com,fr\r\n"\'=cmd@example.com",\r\n');
    expect(csvTable(['email'], [])).toBe('email\r\n');
  });
});
