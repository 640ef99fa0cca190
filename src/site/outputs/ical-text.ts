/**
 * The lexical rules of iCalendar (RFC 5545, section 3): TEXT escaping, UTC date-times, and
 * content lines ended by CRLF and folded at 75 octets.
 */

/**
 * A TEXT value (RFC 5545 3.3.11): backslash, semicolon and comma escaped, every kind of line
 * break written as `\n`. Control characters TEXT cannot hold (all but tab) are left out, and lone
 * surrogates become U+FFFD, so the value is always valid UTF-8.
 */
export function icalText(value: string): string {
  return value
    .toWellFormed()
    .replace(/\r\n|\r|\n/g, '\n')
    .replace(/[\u0000-\u0008\u000B-\u001F\u007F]/g, '')
    .replace(/[\\;,\n]/g, (char) => (char === '\n' ? '\\n' : `\\${char}`));
}

/** A UTC DATE-TIME (form #2, `19980119T070000Z`); seconds are the finest unit iCalendar has. */
export function icalUtc(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '');
}

const MAX_OCTETS = 75;

function utf8Length(codePoint: number): number {
  if (codePoint < 0x80) return 1;
  if (codePoint < 0x800) return 2;
  if (codePoint < 0x10000) return 3;
  return 4;
}

/**
 * One content line folded (RFC 5545 3.1): no line longer than 75 octets, continuation lines
 * starting with one space (which counts), and never a break inside a UTF-8 character. Returns
 * the physical lines without their CRLF.
 */
export function foldLine(line: string): string[] {
  const lines: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = utf8Length(char.codePointAt(0) ?? 0);
    if (octets + size > MAX_OCTETS) {
      lines.push(current);
      current = ' ';
      octets = 1;
    }
    current += char;
    octets += size;
  }
  lines.push(current);
  return lines;
}

/** `NAME;PARAMS:value` folded, each physical line ended by CRLF. The value must already be escaped. */
export function contentLine(name: string, value: string): string {
  return foldLine(`${name}:${value}`)
    .map((physical) => `${physical}\r\n`)
    .join('');
}
