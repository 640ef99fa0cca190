/**
 * What a pasted link unfurls to (Open Graph and Twitter card tags, the canonical address) and the
 * page's status icons, for the three kinds of public document: the status page, an incident's
 * permalink and a month of history. Pure: the routes hand in the view models they already built.
 * Addresses are absolute (crawlers read them away from the page), from the page's public URLs:
 * SITE_PUBLIC_URL or the custom domain, else the address the request came to (public-url.ts).
 */
import { translator, type Translator } from '../i18n/translator.ts';
import { CARD_HEIGHT, CARD_WIDTH } from '../outputs/card.ts';
import { PAGE_OUTPUTS } from './page-outputs.ts';
import type { PublicUrls } from './public-url.ts';
import type { IncidentView, OverallView } from './types.ts';

export interface ShareView {
  title: string;
  description: string;
  /** The canonical address: og:url and <link rel="canonical">. */
  url: string;
  siteName: string;
  type: 'website' | 'article';
  image: { url: string; alt: string; width: number; height: number; type: string };
}

/** Longest og:description; previews show about this much, and longer text is cut at a word. */
export const DESCRIPTION_MAX_LENGTH = 200;

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
const WORD_CHARACTER = /^[\p{L}\p{N}]/u;

/**
 * `text` on one line, at most `max` characters (graphemes, so no emoji or accent is split), cut
 * after the last whole word that fits and ended with "…"; a single overlong word is cut inside.
 */
export function cutAtWord(text: string, max: number = DESCRIPTION_MAX_LENGTH): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const parts = [...graphemes.segment(line)].map((part) => part.segment);
  if (parts.length <= max) return line;
  const kept = parts.slice(0, max - 1);
  const head = kept.join('');
  // Cut inside a word (a letter or digit on both sides): go back to the space before it.
  const midWord = WORD_CHARACTER.test(kept.at(-1) ?? '') && WORD_CHARACTER.test(parts[max - 1] ?? '');
  const space = head.lastIndexOf(' ');
  const words = midWord && space > 0 ? head.slice(0, space) : head;
  return `${words.replace(/[\s,;:.\-–—]+$/u, '')}…`;
}

interface ShareInput {
  /** The document's <title>. */
  title: string;
  pageName: string;
  urls: PublicUrls;
  /** The language of the page the link is to (English unless given). */
  i18n?: Translator;
}

/**
 * The page's one card (its live status). Only the status page's own tags name the status: an
 * incident's or a past month's document stays the same bytes while the status moves on.
 */
function card(input: ShareInput, overall: OverallView | null): ShareView['image'] {
  const i18n = input.i18n ?? translator();
  const alt = overall ? i18n.t('page.title', { name: input.pageName, status: overall.label }) : i18n.t('share.cardAltPlain', { name: input.pageName });
  return { url: input.urls.at(PAGE_OUTPUTS.card), alt, width: CARD_WIDTH, height: CARD_HEIGHT, type: 'image/png' };
}

/** The page's status sentence, and the titles of its open incidents. */
export function statusDescription(pageName: string, overall: OverallView, active: readonly Pick<IncidentView, 'title'>[], i18n: Translator = translator()): string {
  const sentence = i18n.t('page.description', { name: pageName, status: overall.label });
  const [first] = active;
  if (!first) return cutAtWord(sentence);
  const open = active.length === 1 ? i18n.t('share.activeIncident', { title: first.title }) : i18n.t('share.activeIncidents', { titles: active.map((incident) => incident.title).join('; ') });
  return cutAtWord(`${sentence} ${open}`);
}

export function pageShare(input: ShareInput & { overall: OverallView; active: readonly Pick<IncidentView, 'title'>[] }): ShareView {
  return {
    title: input.title,
    description: statusDescription(input.pageName, input.overall, input.active, input.i18n),
    url: input.urls.home,
    siteName: input.pageName,
    type: 'website',
    image: card(input, input.overall),
  };
}

export function incidentShare(input: ShareInput & { incident: IncidentView }): ShareView {
  const { incident } = input;
  const latest = incident.updates[0]?.message ?? null;
  const i18n = input.i18n ?? translator();
  const said = { status: incident.statusLabel, title: incident.title };
  return {
    title: input.title,
    description: cutAtWord(latest ? i18n.t('share.incidentLatest', { ...said, latest }) : i18n.t('share.incident', said)),
    url: input.urls.incident(incident.id),
    siteName: input.pageName,
    type: 'article',
    image: card(input, null),
  };
}

/** `month.key` is null for the history's own address (this month). */
export function historyShare(input: ShareInput & { month: { key: string | null; label: string } }): ShareView {
  return {
    title: input.title,
    description: cutAtWord((input.i18n ?? translator()).t('share.history', { name: input.pageName, month: input.month.label })),
    url: input.month.key === null ? input.urls.history : input.urls.month(input.month.key),
    siteName: input.pageName,
    type: 'website',
    image: card(input, null),
  };
}

/** The page's status icons, relative like every link of the page. */
export function statusIcons(basePath: string): { svg: string; png: string } {
  return { svg: `${basePath}/${PAGE_OUTPUTS.favicon}`, png: `${basePath}/${PAGE_OUTPUTS.faviconPng}` };
}
