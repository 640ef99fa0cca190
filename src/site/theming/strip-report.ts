/**
 * What the page would lose or neutralize of a draft's owner HTML (header, footer) and custom CSS,
 * shown by the console's theming screen before publishing. Driven by the sanitizers the page uses
 * (lib/sanitize.ts ownerHtmlRemovals, lib/css.ts customCssFindings), so the report and the page
 * never disagree; this module only words their findings from the catalogs.
 */
import { customCssFindings, type CssFinding, type CssFindingReason } from '../lib/css.ts';
import { ownerHtmlRemovals, type HtmlRemoval, type HtmlRemovalReason } from '../lib/sanitize.ts';
import type { ParamsOf, TextKey } from '../i18n/catalog.ts';
import type { Translator } from '../i18n/translator.ts';

export interface StripItem {
  /** `removed`: left out of the page; `escaped`: kept as harmless text; `inert`: kept, but it has no effect. */
  effect: 'removed' | 'escaped' | 'inert';
  /** A machine-readable reason (for tests and styling). */
  code: HtmlRemovalReason | CssFindingReason;
  /** What was found, as code: `<script>`, `onclick` on `<p>`, or the CSS text found. */
  subject: string;
  /** How many times (HTML), or the 1-based line (CSS). */
  count?: number;
  line?: number;
  /** Why, in the translator's language. */
  reason: string;
}

export interface StripReport {
  header: StripItem[];
  footer: StripItem[];
  css: StripItem[];
  /** True when nothing is removed, escaped or inert: the page shows the draft as written. */
  clean: boolean;
}

/** A catalog text without placeholders. */
type PlainKey = { [K in TextKey]: keyof ParamsOf<K> extends never ? K : never }[TextKey];

const HTML_REASONS: Record<HtmlRemovalReason, PlainKey> = {
  script: 'theming.strip.script',
  'style-element': 'theming.strip.styleElement',
  embedded: 'theming.strip.embedded',
  form: 'theming.strip.form',
  image: 'theming.strip.image',
  tag: 'theming.strip.tag',
  'event-handler': 'theming.strip.eventHandler',
  'style-attribute': 'theming.strip.styleAttribute',
  id: 'theming.strip.id',
  href: 'theming.strip.href',
  target: 'theming.strip.target',
  'reserved-class': 'theming.strip.reservedClass',
  attribute: 'theming.strip.attribute',
};

const CSS_REASONS: Record<CssFindingReason, PlainKey> = {
  'closing-tag': 'theming.css.closingTag',
  'comment-mark': 'theming.css.commentMark',
  nul: 'theming.css.nul',
  import: 'theming.css.import',
  'script-url': 'theming.css.scriptUrl',
  'blocked-url': 'theming.css.blockedUrl',
  expression: 'theming.css.expression',
  binding: 'theming.css.binding',
};

function htmlItem(removal: HtmlRemoval, i18n: Translator): StripItem {
  const subject = removal.kind === 'element' ? `<${removal.name}>` : `${removal.name} → <${removal.element ?? ''}>`;
  return { effect: 'removed', code: removal.reason, subject, count: removal.count, reason: i18n.t(HTML_REASONS[removal.reason]) };
}

function cssItem(finding: CssFinding, i18n: Translator): StripItem {
  return { effect: finding.effect, code: finding.reason, subject: finding.excerpt, line: finding.line, reason: i18n.t(CSS_REASONS[finding.reason]) };
}

export interface OwnerContentDraft {
  headerText?: string | null;
  footerText?: string | null;
  customCss?: string | null;
}

export function stripReport(draft: OwnerContentDraft, i18n: Translator): StripReport {
  const header = ownerHtmlRemovals(draft.headerText).removed.map((removal) => htmlItem(removal, i18n));
  const footer = ownerHtmlRemovals(draft.footerText).removed.map((removal) => htmlItem(removal, i18n));
  const css = customCssFindings(draft.customCss).findings.map((finding) => cssItem(finding, i18n));
  return { header, footer, css, clean: header.length + footer.length + css.length === 0 };
}
