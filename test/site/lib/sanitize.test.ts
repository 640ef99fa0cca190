import { describe, expect, it } from 'vitest';
import { sanitizeOwnerHtml } from '../../../src/site/lib/sanitize.ts';

const ALLOWED_TAGS = new Set(['a', 'b', 'strong', 'i', 'em', 'u', 's', 'small', 'code', 'span', 'br', 'p', 'ul', 'ol', 'li', 'h2', 'h3', 'h4']);
const ALLOWED_ATTRIBUTES = new Set(['href', 'title', 'rel', 'class']);
const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)((?:\s+[a-z]+="[^"<>]*")*)\s*(\/?)>/g;
const ATTRIBUTE = /\s+([a-z]+)="([^"]*)"/g;

/** Everything a browser could run or load from the output is absent, whatever the input was. */
function expectSafe(output: string): void {
  for (const [, , name = '', attributes = ''] of output.matchAll(TAG)) {
    expect(ALLOWED_TAGS, `tag <${name}>`).toContain(name);
    for (const [, attribute = '', value = ''] of attributes.matchAll(ATTRIBUTE)) {
      expect(ALLOWED_ATTRIBUTES, `attribute ${attribute}`).toContain(attribute);
      if (attribute === 'href') expect(['https:', 'http:', 'mailto:']).toContain(resolvedProtocol(value));
      if (attribute === 'class') expect(value.split(' ').some((name) => name.startsWith('pl-'))).toBe(false);
    }
  }
  // Outside well-formed allowed tags, no markup character survives unescaped.
  expect(output.replace(TAG, '')).not.toMatch(/[<>]/);
}

/** The scheme a browser would follow for an href, after decoding the entities the sanitizer writes. */
function resolvedProtocol(href: string): string {
  const decoded = href.replaceAll('&quot;', '"').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
  return new URL(decoded, 'https://status.example/page').protocol;
}

describe('sanitizeOwnerHtml', () => {
  it.each([
    ['plain text', 'We are open 24/7.', 'We are open 24/7.'],
    ['text needing escapes', 'Tom & Jerry <3 > 2', 'Tom &amp; Jerry &lt;3 &gt; 2'],
    ['quotes in text stay readable', `"quoted" and 'single'`, `"quoted" and 'single'`],
    ['entities stay single-encoded', '&lt;b&gt; &amp;amp;', '&lt;b&gt; &amp;amp;'],
    ['formatting tags', '<p><b>a</b><strong>b</strong><i>c</i><em>d</em><u>e</u><s>f</s><small>g</small><code>h</code><span>i</span></p>', '<p><b>a</b><strong>b</strong><i>c</i><em>d</em><u>e</u><s>f</s><small>g</small><code>h</code><span>i</span></p>'],
    ['lists and headings', '<h2>T</h2><h3>U</h3><h4>V</h4><ul><li>1</li></ul><ol><li>2</li></ol>', '<h2>T</h2><h3>U</h3><h4>V</h4><ul><li>1</li></ul><ol><li>2</li></ol>'],
    ['h1 and h5 dropped, text kept', '<h1>Big</h1><h5>small</h5>', 'Bigsmall'],
    ['line break', 'a<br>b<br/>c', 'a<br />b<br />c'],
    ['link gets rel, loses target and handlers', '<a href="https://example.com/x?a=1&b=2" target="_blank" rel="opener" onclick="x()" title="Go">Docs</a>', '<a href="https://example.com/x?a=1&amp;b=2" rel="noopener noreferrer nofollow" title="Go">Docs</a>'],
    ['mailto link', '<a href="mailto:ops@example.com">mail</a>', '<a href="mailto:ops@example.com" rel="noopener noreferrer nofollow">mail</a>'],
    ['relative link', '<a href="/history">history</a>', '<a href="/history" rel="noopener noreferrer nofollow">history</a>'],
    ['classes kept, pl- classes and ids dropped', '<p class="note pl-banner big" id="x">hi</p>', '<p class="note big">hi</p>'],
    ['class with only pl- names removed', '<span class="pl-status-up">ok</span>', '<span>ok</span>'],
    ['style attribute dropped', '<p style="color:red">x</p>', '<p>x</p>'],
    ['unclosed tags closed', '<p>open <b>bold', '<p>open <b>bold</b></p>'],
    ['stray closing tags dropped (a lone </p> is an empty p, as in browsers)', 'a</b></p>b', 'a<p></p>b'],
    ['empty input', '', ''],
    ['whitespace only', '  \n ', ''],
    ['NUL removed', 'a\u0000b', 'ab'],
  ])('%s', (_name, input, expected) => {
    const output = sanitizeOwnerHtml(input);
    expect(output).toBe(expected);
    expectSafe(output);
  });

  it.each([null, undefined])('returns an empty string for %s', (input) => {
    expect(sanitizeOwnerHtml(input)).toBe('');
  });

  const XSS_VECTORS: [string, string][] = [
    ['script tag', '<script>alert(1)</script>'],
    ['script with src', '<script src="https://evil.example/x.js"></script>'],
    ['uppercase script', '<SCRIPT>alert(1)</SCRIPT>'],
    ['split script', '<scr<script>ipt>alert(1)</script>'],
    ['double open', '<<script>alert(1)//<</script>'],
    ['style element', '<style>body{background:url(javascript:alert(1))}</style>'],
    ['img onerror', '<img src=x onerror=alert(1)>'],
    ['svg onload', '<svg onload=alert(1)>'],
    ['svg with script', '<svg><script>alert(1)</script></svg>'],
    ['svg animate href', '<svg><a><animate attributeName=href values=javascript:alert(1) /><text y=20>x</text></a></svg>'],
    ['math mglyph style', '<math><mi><mglyph><style><img src=x onerror=alert(1)></style></mglyph></mi></math>'],
    ['math href', '<math href="javascript:alert(1)">x</math>'],
    ['xmp passthrough', '<xmp><script>alert(1)</script></xmp>'],
    ['xmp closing trick', '<xmp></xmp><img src=x onerror=alert(1)></xmp>'],
    ['noscript title trick', '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>'],
    ['noembed', '<noembed><img title="</noembed><img src onerror=alert(1)>"></noembed>'],
    ['noframes', '<noframes><img title="</noframes><img src onerror=alert(1)>"></noframes>'],
    ['iframe', '<iframe src="https://evil.example"></iframe>'],
    ['iframe srcdoc', '<iframe srcdoc="<script>alert(1)</script>"></iframe>'],
    ['unclosed iframe with markup', '<iframe><img src=x onerror=alert(1)>'],
    ['template', '<template><img src=x onerror=alert(1)></template>'],
    ['textarea breakout', '<textarea></textarea><img src=x onerror=alert(1)>'],
    ['title breakout', '<title></title><img src=x onerror=alert(1)>'],
    ['object', '<object data="javascript:alert(1)"></object>'],
    ['embed', '<embed src="javascript:alert(1)">'],
    ['form', '<form action="javascript:alert(1)"><button>go</button></form>'],
    ['input autofocus', '<input autofocus onfocus=alert(1)>'],
    ['details ontoggle', '<details open ontoggle=alert(1)>'],
    ['body onload', '<body onload=alert(1)>'],
    ['meta refresh', '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">'],
    ['base href', '<base href="javascript:alert(1)//">'],
    ['link stylesheet', '<link rel="stylesheet" href="https://evil.example/x.css">'],
    ['javascript href', '<a href="javascript:alert(1)">x</a>'],
    ['javascript href upper case', '<a href="JaVaScRiPt:alert(1)">x</a>'],
    ['javascript href with tab entity', '<a href="jav&#x09;ascript:alert(1)">x</a>'],
    ['javascript href with newline entity', '<a href="jav&#10;ascript:alert(1)">x</a>'],
    ['javascript href with raw tab', '<a href="jav\tascript:alert(1)">x</a>'],
    ['javascript href with NUL', '<a href="java\u0000script:alert(1)">x</a>'],
    ['javascript href with leading spaces', '<a href="  javascript:alert(1)">x</a>'],
    ['javascript href with leading control char', '<a href="&#x01;javascript:alert(1)">x</a>'],
    ['javascript href with named colon entity', '<a href="javascript&colon;alert(1)">x</a>'],
    ['javascript href fully encoded', '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>'],
    ['javascript href hex without semicolons', '<a href="&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A;alert(1)">x</a>'],
    ['vbscript href', '<a href="vbscript:msgbox(1)">x</a>'],
    ['data href', '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>'],
    ['data href with spaces', '<a href=" data:text/html,<script>alert(1)</script>">x</a>'],
    ['protocol-relative href', '<a href="//evil.example/">x</a>'],
    ['unquoted href', '<a href=javascript:alert(1)>x</a>'],
    ['event handler on allowed tag', '<p onclick="alert(1)" onmouseover=alert(1)>x</p>'],
    ['style with expression', '<span style="background:url(javascript:alert(1))">x</span>'],
    ['id clobbering', '<span id="config">x</span>'],
    ['comment hiding a script', '<!--<script>alert(1)</script>-->ok'],
    ['conditional comment', '<!--[if gte IE 4]><script>alert(1)</script><![endif]-->'],
    ['CDATA', '<![CDATA[<script>alert(1)</script>]]>'],
    ['attribute breakout', '<a title="a" onmouseover="alert(1)" href="https://ok.example">x</a>'],
    ['quote breakout in title', `<a title='x" onmouseover="alert(1)'>x</a>`],
    ['encoded markup stays text', '&lt;script&gt;alert(1)&lt;/script&gt;'],
    ['unclosed tag at the end', '<b>bold<img src=x onerror=alert(1)'],
    ['unclosed attribute', '<a href="https://ok.example onmouseover=alert(1)>x'],
    ['plaintext element', '<plaintext><img src=x onerror=alert(1)>'],
    ['select option', '<select><option><img src=x onerror=alert(1)></option></select>'],
    ['nested encoding', '<a href="&amp;#106;avascript:alert(1)">x</a>'],
  ];

  it.each(XSS_VECTORS)('neutralizes %s', (_name, input) => {
    expectSafe(sanitizeOwnerHtml(input));
  });

  it.each(XSS_VECTORS)('is idempotent on %s', (_name, input) => {
    const once = sanitizeOwnerHtml(input);
    expect(sanitizeOwnerHtml(once)).toBe(once);
  });

  it.each([
    ['script content', '<script>alert(1)</script>after', 'after'],
    ['style content', '<style>p{}</style>after', 'after'],
    ['xmp content', '<xmp><b>x</b></xmp>after', 'after'],
    ['svg content', '<svg><text>label</text></svg>after', 'after'],
    ['iframe content', '<iframe>inner</iframe>after', 'after'],
  ])('drops %s entirely', (_name, input, expected) => {
    expect(sanitizeOwnerHtml(input)).toBe(expected);
  });

  it.each(XSS_VECTORS.filter(([name]) => /^(?:javascript|vbscript|data|protocol-relative|unquoted) href/.test(name)))('removes the link target of %s', (_name, input) => {
    expect(sanitizeOwnerHtml(input)).toBe('<a rel="noopener noreferrer nofollow">x</a>');
  });

  it('keeps the text of other disallowed tags', () => {
    expect(sanitizeOwnerHtml('<div><font color="red">Hello</font> <blink>there</blink></div>')).toBe('Hello there');
  });
});
