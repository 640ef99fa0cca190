import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { contentLine, foldLine, icalText, icalUtc } from '../../../src/site/outputs/ical-text.ts';

const octets = (text: string) => Buffer.byteLength(text, 'utf8');

/** RFC 5545 3.1 unfolding: remove every CRLF followed by one space or tab. */
const unfold = (text: string) => text.replace(/\r\n[ \t]/g, '');

describe('icalText', () => {
  it('escapes backslash, semicolon and comma, and writes every line break as \\n', () => {
    expect(icalText('a\\b;c,d')).toBe('a\\\\b\\;c\\,d');
    expect(icalText('one\r\ntwo\nthree\rfour')).toBe('one\\ntwo\\nthree\\nfour');
    expect(icalText('\\n')).toBe('\\\\n');
  });

  it('leaves out control characters TEXT cannot hold, keeps tabs, mends lone surrogates', () => {
    expect(icalText('a\u0000b\u001Fc\u007Fd\te')).toBe('abcd\te');
    expect(icalText('x\uD800y')).toBe('x\uFFFDy');
  });

  it('reads back as the original text through ical.js', () => {
    const original = 'Tom & "Jerry"; a, b\\c\nnew line <script> 😀 שלום';
    const component = ICAL.Component.fromString(`BEGIN:VEVENT\r\n${contentLine('SUMMARY', icalText(original))}END:VEVENT\r\n`);
    expect(component.getFirstPropertyValue('summary')).toBe(original);
  });
});

describe('icalUtc', () => {
  it('is the UTC form with Z, to the second', () => {
    expect(icalUtc(Date.parse('2026-11-22T14:05:09.999Z'))).toBe('20261122T140509Z');
    expect(icalUtc(Date.parse('2026-01-02T03:04:05+02:00'))).toBe('20260102T010405Z');
  });
});

describe('foldLine and contentLine', () => {
  it('leaves a line of 75 octets alone and folds one of 76', () => {
    expect(foldLine('x'.repeat(75))).toEqual(['x'.repeat(75)]);
    expect(foldLine('x'.repeat(76))).toEqual(['x'.repeat(75), ' x']);
  });

  it('counts the leading space of a continuation line', () => {
    const lines = foldLine('y'.repeat(75 + 74 + 1));
    expect(lines.map(octets)).toEqual([75, 75, 2]);
  });

  const SAMPLES: [string, string][] = [
    ['emoji (4 octets)', '😀🚀'],
    ['an emoji ZWJ sequence', '👩‍👩‍👧‍👦 '],
    ['Hebrew (2 octets)', 'שלום עולם '],
    ['Arabic with a right-to-left mark', '\u200Fمرحبا بالعالم '],
    ['CJK (3 octets)', '漢字'],
  ];
  // Shifting the text by 0-4 ASCII characters puts every octet of a character at the fold boundary.
  const CASES = SAMPLES.flatMap(([name, sample]) => [0, 1, 2, 3, 4].map((shift) => [`${name}, shifted by ${shift}`, `${'a'.repeat(60 + shift)}${sample.repeat(40)}`] as const));

  it.each(CASES)('never splits a UTF-8 character: %s', (_, text) => {
    const line = `DESCRIPTION:${icalText(text)}`;
    const physical = foldLine(line);
    expect(physical.length).toBeGreaterThan(2);
    for (const part of physical) {
      expect(octets(part)).toBeLessThanOrEqual(75);
      // Each physical line is whole characters: no surrogate half at either end.
      expect(part).not.toMatch(/[\uD800-\uDBFF]$|^ ?[\uDC00-\uDFFF]/);
    }
    expect(physical.slice(1).every((part) => part.startsWith(' '))).toBe(true);
    const written = contentLine('DESCRIPTION', icalText(text));
    expect(written.endsWith('\r\n')).toBe(true);
    expect(written.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    expect(unfold(written)).toBe(`${line}\r\n`);
    expect(ICAL.Component.fromString(`BEGIN:VEVENT\r\n${written}END:VEVENT\r\n`).getFirstPropertyValue('description')).toBe(text);
  });

  it('breaks before a character that does not fit, leaving the line short', () => {
    // 'X:' + 72 ASCII = 74 octets; a 4-octet emoji cannot follow on the same line.
    expect(foldLine(`X:${'a'.repeat(72)}😀`)).toEqual([`X:${'a'.repeat(72)}`, ' 😀']);
  });
});
