import { describe, expect, it } from 'vitest';
import {
  brandColorVariables,
  contrastRatio,
  embedCustomCss,
  readableTextColor,
  relativeLuminance,
  safeBrandColor,
  safeHttpUrl,
  safeLogoUrl,
} from '../../../src/site/lib/css.ts';
import { sha256Source } from '../../../src/site/security/csp.ts';

describe('safeBrandColor', () => {
  it.each([
    ['#1a7f37', '#1a7f37'],
    ['#1A7F37', '#1a7f37'],
    ['#FFF', '#fff'],
    [' #abc ', '#abc'],
    ['#fff\n', '#fff'],
    ['#000000', '#000000'],
  ])('accepts %j -> %s', (input, expected) => {
    expect(safeBrandColor(input)).toBe(expected);
  });

  it.each([
    ['red'],
    ['#12345'],
    ['#1234'],
    ['#12345678'],
    ['1a7f37'],
    ['#ggg'],
    ['#fff; } body { display:none'],
    ['#fff</style><script>alert(1)</script>'],
    ['rgb(0,0,0)'],
    ['url(https://evil.example)'],
    ['var(--x)'],
    [''],
    [null],
    [undefined],
    [0xffffff],
    [['#fff']],
  ])('rejects %j', (input) => {
    expect(safeBrandColor(input)).toBeNull();
  });
});

describe('contrast', () => {
  it.each([
    ['#000000', 0],
    ['#ffffff', 1],
    ['#fff', 1],
    ['#808080', 0.2158605001138992],
  ])('luminance of %s is %f', (color, expected) => {
    expect(relativeLuminance(color)).toBeCloseTo(expected, 10);
  });

  it('is null for invalid colors', () => {
    expect(relativeLuminance('blue')).toBeNull();
  });

  it.each([
    [1, 0, 21],
    [0, 1, 21],
    [0.5, 0.5, 1],
  ])('ratio(%f, %f) = %f', (a, b, expected) => {
    expect(contrastRatio(a, b)).toBeCloseTo(expected, 10);
  });

  it.each([
    ['#000000', '#ffffff'],
    ['#1a7f37', '#ffffff'],
    ['#0969da', '#ffffff'],
    ['#ffffff', '#000000'],
    ['#ffd33d', '#000000'],
    ['#7fdbff', '#000000'],
    ['#767676', '#000000'], // luminance 0.181: black (4.62) beats white (4.54)
    ['#757575', '#ffffff'], // luminance 0.178: white (4.60) beats black (4.56)
    ['not a color', '#ffffff'], // the default brand color is black
  ])('text on %s is %s', (brand, text) => {
    expect(readableTextColor(brand)).toBe(text);
  });
});

describe('brandColorVariables', () => {
  it.each([
    ['#1A7F37', '--pl-brand: #1a7f37; --pl-on-brand: #ffffff;'],
    ['#ff0', '--pl-brand: #ff0; --pl-on-brand: #000000;'],
    ['red; } * { background: url(https://evil.example) ', '--pl-brand: #000000; --pl-on-brand: #ffffff;'],
    [undefined, '--pl-brand: #000000; --pl-on-brand: #ffffff;'],
  ])('%j -> %s', (input, expected) => {
    expect(brandColorVariables(input)).toBe(expected);
  });
});

describe('embedCustomCss', () => {
  it.each([
    ['body { color: red; }', 'body { color: red; }'],
    ['a::after { content: "</style><script>alert(1)</script>"; }', 'a::after { content: "<\\/style><script>alert(1)<\\/script>"; }'],
    ['</STYLE><img src=x onerror=alert(1)>', '<\\/STYLE><img src=x onerror=alert(1)>'],
    ['</sTyLe >', '<\\/sTyLe >'],
    ['<!-- p {} -->', '<\\!-- p {} --\\>'],
    ['<\u0000/style>', '<\\/style>'],
    ['a\u0000b', 'ab'],
    ['', ''],
  ])('%j -> %j', (input, expected) => {
    expect(embedCustomCss(input)).toBe(expected);
  });

  it.each([null, undefined])('returns an empty string for %s', (input) => {
    expect(embedCustomCss(input)).toBe('');
  });

  it.each([
    '</style><script>alert(1)</script>',
    '</style/><script>alert(1)</script>',
    '</style\t><script>alert(1)</script>',
    '<</style>/style>',
    '<\u0000/style>',
    'x</style\n>',
  ])('can never end the element: %j', (input) => {
    const output = embedCustomCss(input);
    expect(output).not.toMatch(/<\//);
    expect(output).not.toMatch(/<!--|-->/);
    expect(output).not.toContain('\u0000');
  });
});

/**
 * What a browser hashes for a CSP check of a <style> element: the text after the HTML parser's
 * input preprocessing (CRLF and lone CR become LF, NUL becomes U+FFFD) of the UTF-8 bytes sent.
 */
function asBrowserSees(text: string): string {
  // Inside a document a BOM is an ordinary character.
  const sent = new TextDecoder('utf-8', { ignoreBOM: true }).decode(new TextEncoder().encode(text));
  return sent.replace(/\r\n?/g, '\n').replaceAll('\u0000', '\uFFFD');
}

describe('embedCustomCss: the hashed text is the text the browser sees', () => {
  it.each([
    ['CRLF', 'body {\r\n  color: red;\r\n}\r\n'],
    ['lone CR', 'a {}\rb {}\r'],
    ['CR before CRLF', 'a {}\r\r\nb {}'],
    ['LF CR', 'a {}\n\rb {}'],
    ['NUL and CR', 'a\u0000\r\n{}'],
    ['lone surrogates', 'a::after { content: "\uD800x\uDFFF"; }'],
    ['form feed, tab, vertical tab, other controls', 'a\f{}\tb\v{}\u0001\u007f\u0085\u2028'],
    ['a BOM and non-ASCII', '\uFEFFp::before { content: "é 🔥 مرحبا"; }'],
    ['an escape sequence of the end tag over CRLF', '<\r\n/style>'],
  ])('%s', (_name, input) => {
    const embedded = embedCustomCss(input);
    expect(embedded).not.toContain('\r');
    expect(asBrowserSees(embedded)).toBe(embedded);
    expect(sha256Source(asBrowserSees(embedded))).toBe(sha256Source(embedded));
  });

  it('keeps the lines of a CRLF stylesheet, as LF', () => {
    expect(embedCustomCss('a {}\r\nb {}\rc {}')).toBe('a {}\nb {}\nc {}');
  });
});

describe('safeHttpUrl', () => {
  it.each([
    ['https://example.com/logo.png', 'https://example.com/logo.png'],
    ['http://example.com', 'http://example.com/'],
    ['  HTTPS://Example.COM/a b ', 'https://example.com/a%20b'],
    ['https://example.com:8443/x?y=1#z', 'https://example.com:8443/x?y=1#z'],
    ['https://bücher.example/', 'https://xn--bcher-kva.example/'],
    ['https://example.com/"><script>', 'https://example.com/%22%3E%3Cscript%3E'],
  ])('accepts %j -> %s', (input, expected) => {
    expect(safeHttpUrl(input)).toBe(expected);
  });

  it.each([
    ['javascript:alert(1)'],
    ['JavaScript:alert(1)'],
    [' javascript:alert(1)'],
    ['data:image/png;base64,AAAA'],
    ['//evil.example/logo.png'],
    ['/relative/logo.png'],
    ['logo.png'],
    ['ftp://example.com/logo.png'],
    ['https://user:pass@example.com/'],
    ['https://user@example.com/'],
    ['http:example.com'],
    ['https:\\\\evil.example'],
    ['https://'],
    ['https://exa mple.com'],
    [`https://example.com/${'a'.repeat(2100)}`],
    [''],
    [null],
    [42],
  ])('rejects %j', (input) => {
    expect(safeHttpUrl(input)).toBeNull();
  });
});

describe('safeLogoUrl', () => {
  it.each([
    ['/demo/acme-logo.svg', '/demo/acme-logo.svg'],
    ['/logo.png', '/logo.png'],
    ['/a/.well-known/x_y~z.png', '/a/.well-known/x_y~z.png'],
    ['https://example.com/logo.png', 'https://example.com/logo.png'],
  ])('accepts a site path or an http(s) URL: %j -> %s', (input, expected) => {
    expect(safeLogoUrl(input)).toBe(expected);
  });

  it.each([
    ['//evil.example/logo.png'],
    ['/\\evil.example/logo.png'],
    ['/../secret.png'],
    ['/a/./b.png'],
    ['/a/../b.png'],
    ['/a//b.png'],
    ['/logo.png?x=1'],
    ['/logo.png#x'],
    ['/logo%2e%2e.png'],
    ['/'],
    ['logo.png'],
    ['javascript:alert(1)'],
    ['/"><script>.png'],
    [`/${'a'.repeat(2050)}`],
    [null],
  ])('refuses %j', (input) => {
    expect(safeLogoUrl(input)).toBeNull();
  });
});
