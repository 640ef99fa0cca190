import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { CARD_HEIGHT, CARD_WIDTH, incidentLines, renderCardSvg, type CardInput } from '../../../src/site/outputs/card.ts';
import { renderFaviconSvg } from '../../../src/site/outputs/favicon.ts';
import { forgetRenderedPngs, svgToPng } from '../../../src/site/outputs/svg-png.ts';
import { cardView, pageTone } from '../../../src/site/view/card-view.ts';
import { incident, monitor, page, snapshot } from '../view/fixtures.ts';
import { outputFor } from './fixtures.ts';
import { parseXml } from './xml.ts';

const base: CardInput = {
  pageName: 'Acme Status',
  brandColor: '#1a7f37',
  tone: 'operational',
  statusLabel: 'All systems operational',
  activeTitles: [],
  updated: '22 Nov 2026, 12:00 UTC',
  staleAsOf: null,
};

function texts(svg: string): string[] {
  return Array.from(parseXml(svg, 'image/svg+xml').getElementsByTagName('text')).map((node) => node.textContent ?? '');
}

/** A real decode of the PNG: its size and pixels. */
function decode(png: Uint8Array): PNG {
  return PNG.sync.read(Buffer.from(png));
}

describe('renderCardSvg', () => {
  it('shows the name, its initial, the status, open incidents and the time of the data', () => {
    const svg = renderCardSvg({ ...base, tone: 'partial-outage', statusLabel: 'Partial outage', activeTitles: ['Database down'] });
    expect(texts(svg)).toEqual(['A', 'Acme Status', 'Partial outage', 'Active incidents', 'Database down', 'Updated 22 Nov 2026, 12:00 UTC']);
    expect(svg).toContain(`width="${CARD_WIDTH}" height="${CARD_HEIGHT}"`);
  });

  it('keeps hostile names and titles as text, escaped once', () => {
    const svg = renderCardSvg({ ...base, pageName: '<script>alert(1)</script>', activeTitles: ['"&amp;" <img src=x onerror=alert(1)>'] });
    const parsed = texts(svg);
    expect(parsed).toContain('<script>alert(1)</script>');
    expect(parsed).toContain('"&amp;" <img src=x onerror=alert(1)>');
    expect(parsed[0]).toBe('<');
    const document = parseXml(svg, 'image/svg+xml');
    expect(document.getElementsByTagName('script')).toHaveLength(0);
    expect(document.getElementsByTagName('img')).toHaveLength(0);
  });

  it('cuts 500-character names and titles with "…" to fit the card', () => {
    const long = 'W'.repeat(500);
    const parsed = texts(renderCardSvg({ ...base, pageName: long, activeTitles: [long, `${'word '.repeat(100)}end`] }));
    expect(parsed.filter((text) => text.endsWith('…'))).toHaveLength(3);
    for (const line of parsed.filter((text) => text.length > 1 && (text.startsWith('W') || text.startsWith('word')))) {
      expect(line.endsWith('…')).toBe(true);
      expect(line.length).toBeLessThan(80);
    }
  });

  it('accepts only a hex brand colour, else the default', () => {
    const svg = renderCardSvg({ ...base, brandColor: 'red;}</style><script>' });
    expect(svg).not.toContain('red;');
    expect(svg).toContain('fill="#000000"');
  });

  it('lists three incidents, or two and how many more', () => {
    expect(incidentLines(['a', 'b', 'c'])).toEqual(['a', 'b', 'c']);
    expect(incidentLines(['a', 'b', 'c', 'd', 'e'])).toEqual(['a', 'b', 'and 3 more']);
  });

  it('says the data is the last known state while it is stale', () => {
    expect(texts(renderCardSvg({ ...base, staleAsOf: '22 Nov 2026, 11:00 UTC' })).at(-1)).toBe('Live data unavailable — status as of 22 Nov 2026, 11:00 UTC');
  });
});

describe('the card of a page, as a PNG', () => {
  it('decodes as a 1200×630 PNG', async () => {
    const png = decode(await svgToPng(renderCardSvg(cardView(outputFor()))));
    expect([png.width, png.height]).toEqual([1200, 630]);
  });

  it('is byte-identical for the same data, rendered afresh', async () => {
    const first = await svgToPng(renderCardSvg(cardView(outputFor(snapshot()))));
    forgetRenderedPngs();
    const second = await svgToPng(renderCardSvg(cardView(outputFor(snapshot()))));
    expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);
  });

  it('changes when the overall status changes', async () => {
    const down = await svgToPng(renderCardSvg(cardView(outputFor(snapshot()))));
    const up = await svgToPng(renderCardSvg(cardView(outputFor(snapshot({ monitors: [monitor('m1', 'up'), monitor('m2', 'up')], incidents: [] })))));
    expect(Buffer.from(up).equals(Buffer.from(down))).toBe(false);
    // The status panel's colour is the status's: a pixel inside it tells them apart.
    const pixel = (png: PNG) => [...png.data.subarray((300 * 1200 + 1000) * 4, (300 * 1200 + 1000) * 4 + 3)];
    expect(pixel(decode(up))).toEqual([0x17, 0x70, 0x3a]);
    expect(pixel(decode(down))).not.toEqual([0x17, 0x70, 0x3a]);
  });

  it('renders a page named <script> with 500-character incident titles', async () => {
    const data = snapshot({ pages: [page({ name: '<script>alert(1)</script>' })], incidents: [incident('i1', { title: 'x'.repeat(500) }), incident('i2', { title: '<b>&</b>'.repeat(60) })] });
    const source = outputFor(data);
    const png = decode(await svgToPng(renderCardSvg(cardView(source))));
    expect([png.width, png.height]).toEqual([1200, 630]);
    expect(cardView(source).activeTitles).toHaveLength(2);
  });
});

/** Debian's fonts-droid-fallback (installed by .ci/run): a small font with the CJK ideographs. */
const CJK_FONT = process.env.CJK_TEST_FONT ?? '/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf';

describe('scripts beyond DejaVu on the card', () => {
  // Characters no font has are left out, so two cards differing only in such characters are
  // the same picture; drawn, the order of the characters shows.
  const card = (statusLabel: string, fallbackFontFiles?: readonly string[]) => svgToPng(renderCardSvg({ ...base, statusLabel }), { fallbackFontFiles });
  const same = async (a: Promise<Uint8Array>, b: Promise<Uint8Array>) => Buffer.from(await a).equals(Buffer.from(await b));

  it('draws Arabic with the shipped fonts', async () => {
    expect(await same(card('جميع الأنظمة تعمل'), card('تعمل الأنظمة جميع'))).toBe(false);
  });

  it('leaves out CJK without a fallback font, and draws it with CARD_FONT_FILES', async () => {
    expect(await same(card('全システム正常'), card('正常全システム'))).toBe(true);
    expect(await same(card('全システム正常', [CJK_FONT]), card('正常全システム', [CJK_FONT]))).toBe(false);
  });

  it('keeps the bytes of Latin cards when a fallback font is named', async () => {
    expect(await same(card('All systems operational'), card('All systems operational', [CJK_FONT]))).toBe(true);
  });
});

describe('the favicon', () => {
  it('has a shape and colour per status, and a 32 px PNG', async () => {
    const operational = renderFaviconSvg('operational');
    expect(renderFaviconSvg('major-outage')).not.toBe(operational);
    expect(parseXml(operational, 'image/svg+xml').documentElement?.getAttribute('width')).toBe('32');
    const png = decode(await svgToPng(operational, { width: 32 }));
    expect([png.width, png.height]).toEqual([32, 32]);
  });

  it('follows the page status', () => {
    expect(pageTone(outputFor(snapshot()))).toBe('partial-outage');
    expect(pageTone(outputFor(snapshot({ monitors: [monitor('m1', 'up'), monitor('m2', 'up')], incidents: [] })))).toBe('operational');
  });
});

describe('drawing', () => {
  it('stops for an abandoned request without holding up the next drawing', async () => {
    forgetRenderedPngs();
    const svg = renderCardSvg({ ...base, pageName: 'Abandoned' });
    const abandoned = svgToPng(svg, { signal: AbortSignal.abort() });
    const next = svgToPng(renderCardSvg({ ...base, pageName: 'Next' }));
    await expect(abandoned).rejects.toThrow();
    expect(decode(await next).width).toBe(1200);
    // Nothing was kept for the abandoned one: asked again, it is drawn.
    expect(decode(await svgToPng(svg)).width).toBe(1200);
  });
});
