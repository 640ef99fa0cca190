import { describe, expect, it } from 'vitest';
import { translator } from '../../../src/site/i18n/translator.ts';
import { customCssFindings, embedCustomCss } from '../../../src/site/lib/css.ts';
import { ownerHtmlRemovals, sanitizeOwnerHtml } from '../../../src/site/lib/sanitize.ts';
import { stripReport } from '../../../src/site/theming/strip-report.ts';

const en = translator('en');

describe('what the owner-HTML sanitizer removes', () => {
  it('reports scripts, event handlers, styles, ids, unsafe links and reserved classes, and returns exactly what the page gets', () => {
    const html = '<p onclick="steal()" style="color:red" id="top">Hi <a href="javascript:alert(1)" target="_blank">x</a></p><script>alert(1)</script><img src=x onerror=alert(1)><b class="pl-banner mine">b</b><blink>t</blink>';
    const { html: kept, removed } = ownerHtmlRemovals(html);
    expect(kept).toBe(sanitizeOwnerHtml(html));
    expect(removed).toEqual([
      { kind: 'element', name: 'script', count: 1, reason: 'script' },
      { kind: 'element', name: 'img', count: 1, reason: 'image' },
      { kind: 'element', name: 'blink', count: 1, reason: 'tag' },
      { kind: 'attribute', name: 'onclick', element: 'p', count: 1, reason: 'event-handler' },
      { kind: 'attribute', name: 'style', element: 'p', count: 1, reason: 'style-attribute' },
      { kind: 'attribute', name: 'id', element: 'p', count: 1, reason: 'id' },
      { kind: 'attribute', name: 'href', element: 'a', count: 1, reason: 'href' },
      { kind: 'attribute', name: 'target', element: 'a', count: 1, reason: 'target' },
      { kind: 'attribute', name: 'class', element: 'b', count: 1, reason: 'reserved-class' },
    ]);
  });

  it('reports an embedded document once, not the tags inside it', () => {
    const { removed } = ownerHtmlRemovals('<svg><a onclick="x"><script>1</script></a></svg><iframe src="https://evil.test"></iframe><form><input name=q></form>');
    expect(removed).toEqual([
      { kind: 'element', name: 'svg', count: 1, reason: 'embedded' },
      { kind: 'element', name: 'iframe', count: 1, reason: 'embedded' },
      { kind: 'element', name: 'form', count: 1, reason: 'form' },
      { kind: 'element', name: 'input', count: 1, reason: 'form' },
    ]);
  });

  it('counts repeats, and reports nothing for markup the page keeps whole (the rel it adds to links included)', () => {
    expect(ownerHtmlRemovals('<p onclick=a>1</p><p onclick=b>2</p>').removed).toEqual([{ kind: 'attribute', name: 'onclick', element: 'p', count: 2, reason: 'event-handler' }]);
    expect(ownerHtmlRemovals('<p>We are <strong>on it</strong>: <a href="https://status.example.com/" title="t" rel="me">more</a></p><ul><li class="note">x</li></ul>').removed).toEqual([]);
    expect(ownerHtmlRemovals('').removed).toEqual([]);
    expect(ownerHtmlRemovals(null).removed).toEqual([]);
  });
});

describe('what the custom-CSS embedding changes and what has no effect', () => {
  it('finds the </style> breakout, imports, script addresses and old-browser code, with lines; the CSS is the embedded text', () => {
    const css = ':root { --pl-brand: #123456; }\n</style><script>alert(1)</script>\n@import url("https://evil.test/x.css");\n.a { background: url( "javascript:alert(1)" ) }\n.b { background: url(https://cdn.example.com/a.png); width: expression(alert(1)) }\n.c { behavior: url(x.htc) } .d { background: url(ftp://x/y) }';
    const { css: embedded, findings } = customCssFindings(css);
    expect(embedded).toBe(embedCustomCss(css));
    expect(embedded).not.toContain('</');
    expect(findings.map((f) => [f.effect, f.reason, f.line])).toEqual([
      ['escaped', 'closing-tag', 2],
      ['escaped', 'closing-tag', 2],
      ['inert', 'import', 3],
      ['inert', 'script-url', 4],
      ['inert', 'expression', 5],
      ['inert', 'binding', 6],
      ['inert', 'blocked-url', 6],
    ]);
    expect(findings[0]?.excerpt).toBe('</style><script>alert(1)</script>');
  });

  it('ignores what is inside comments, except the escapes (they apply everywhere), and data/http(s)/relative URLs', () => {
    const { findings } = customCssFindings("/* @import 'x'; url(javascript:1) */ .a { background: url(data:image/png;base64,AAAA) url(/logo.svg) url('https://x.test/a.png') }\n/* </style> */");
    expect(findings.map((f) => f.reason)).toEqual(['closing-tag']);
    expect(customCssFindings(':root{--pl-radius:0}').findings).toEqual([]);
    expect(customCssFindings('a{}<!--b-->').findings.map((f) => f.reason)).toEqual(['comment-mark', 'comment-mark']);
  });
});

describe('the strip report for a draft', () => {
  it('words every finding from the catalogs and says whether the draft is clean', () => {
    const report = stripReport({ headerText: '<b onmouseover="x()">Hi</b>', footerText: '<p>ok</p>', customCss: '</style><script>alert(1)</script>' }, en);
    expect(report.clean).toBe(false);
    expect(report.header).toEqual([{ effect: 'removed', code: 'event-handler', subject: 'onmouseover → <b>', count: 1, reason: 'Event handlers never run: the attribute is removed.' }]);
    expect(report.footer).toEqual([]);
    expect(report.css[0]).toMatchObject({ effect: 'escaped', code: 'closing-tag', line: 1, reason: 'A closing tag such as </style> is escaped: the CSS can never leave its style element.' });
    expect(stripReport({ headerText: '<p>Hello</p>', customCss: ':root{--pl-radius:0}' }, en)).toEqual({ header: [], footer: [], css: [], clean: true });
  });

  it('speaks every shipped language, right-to-left included', () => {
    const ar = stripReport({ headerText: '<script>1</script>' }, translator('ar'));
    expect(ar.header[0]?.reason).toBe('لا تعمل النصوص البرمجية أبدًا في صفحة الحالة: تُزال مع محتواها.');
    const ja = stripReport({ customCss: '@import "x.css";' }, translator('ja'));
    expect(ja.css[0]?.reason).toContain('効果なし');
  });
});
