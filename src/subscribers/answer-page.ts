/**
 * The small pages of the subscription flow (check your inbox, confirm, manage): one layout in the
 * page's brand colour, every value escaped, forms that work without JavaScript. GET never changes
 * anything: links in mails open a page with a button, and the button posts. Each page speaks the
 * subscriber's language (`lang`, `dir`), and its forms carry it on to the next answer.
 */
import type { StatusPage } from '../contract/index.ts';
import { DEFAULT_BRAND_COLOR, readableTextColor, safeBrandColor, escapeMarkup, translator, type Translator, subscriptionText, type SubscriptionText, isolationHeaders } from '../site/public.ts';

export interface Choice {
  id: string;
  label: string;
  checked: boolean;
}

export type PageBody =
  | { kind: 'message'; title: string; body: string }
  /** A webhook's signing secret, shown this once (selectable, never in a URL). */
  | { kind: 'secret'; title: string; body: string; secret: string }
  | { kind: 'confirm'; token: string }
  | { kind: 'manage'; token: string; choices: Choice[] };

export interface AnswerPage {
  status: number;
  html: string;
}

/**
 * What every answer carries: never stored by a cache, never framed, nothing loaded from elsewhere,
 * and (the page holds the subscriber's token) a browsing context group of its own.
 */
export const ANSWER_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  ...isolationHeaders('subscription'),
};

function button(label: string, brand: string, name?: string, value?: string): string {
  const attributes = name && value ? ` name="${escapeMarkup(name)}" value="${escapeMarkup(value)}"` : '';
  return `<button type="submit"${attributes} style="background:${brand};color:${readableTextColor(brand)};border:0;border-radius:4px;padding:10px 16px;font:inherit;cursor:pointer">${escapeMarkup(label)}</button>`;
}

function content(body: PageBody, brand: string, words: SubscriptionText): { title: string; html: string } {
  if (body.kind === 'message') return { title: body.title, html: `<p>${escapeMarkup(body.body)}</p>` };
  if (body.kind === 'secret') return { title: body.title, html: `<p>${escapeMarkup(body.body)}</p><p><code data-secret style="user-select:all;word-break:break-all;background:#f4f4f4;padding:6px 8px;border-radius:4px;display:inline-block">${escapeMarkup(body.secret)}</code></p>` };
  const token = `<input type="hidden" name="t" value="${escapeMarkup(body.token)}"><input type="hidden" name="locale" value="${escapeMarkup(words.lang)}">`;
  if (body.kind === 'confirm') {
    return { title: words.confirmTitle, html: `<p>${escapeMarkup(words.confirmBody)}</p><form method="post" action="confirm">${token}${button(words.confirmButton, brand)}</form>` };
  }
  const choices = body.choices
    .map((choice) => `<li><label><input type="checkbox" name="component" value="${escapeMarkup(choice.id)}"${choice.checked ? ' checked' : ''}> ${escapeMarkup(choice.label)}</label></li>`)
    .join('');
  return {
    title: words.manageTitle,
    html: `<p>${escapeMarkup(words.manageBody)}</p>
<form method="post" action="manage">${token}<input type="hidden" name="action" value="unsubscribe">${button(words.unsubscribeButton, brand)}</form>
<form method="post" action="manage" style="margin-top:24px">${token}<input type="hidden" name="action" value="save"><fieldset style="border:1px solid #ccc;border-radius:4px"><legend>${escapeMarkup(words.componentsSummary)}</legend><p style="margin:0 0 8px;color:#555">${escapeMarkup(words.componentsHint)}</p><ul style="list-style:none;padding:0;margin:0 0 12px">${choices}</ul>${button(words.saveComponentsButton, brand)}</fieldset></form>`,
  };
}

/**
 * `homeHref` is the page's own address in the answer's language (relative), or null when there is
 * no page to go back to. `i18n` is the language of the answer (default: English).
 */
export function answerPage(status: number, page: StatusPage | null, homeHref: string | null, body: PageBody, i18n: Translator = translator()): AnswerPage {
  const words = subscriptionText(i18n);
  const brand = safeBrandColor(page?.brandColor) ?? DEFAULT_BRAND_COLOR;
  const pageName = page?.name ?? '';
  const { title, html } = content(body, brand, words);
  const back = homeHref ? `<p style="margin-top:32px"><a href="${escapeMarkup(homeHref)}">${escapeMarkup(words.backToPage)}</a></p>` : '';
  return {
    status,
    html: `<!doctype html>
<html lang="${escapeMarkup(words.lang)}" dir="${words.dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeMarkup(pageName ? `${title} · ${pageName}` : title)}</title></head>
<body style="margin:0;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;line-height:1.5;color:#111;background:#fff">
<header style="background:${brand};color:${readableTextColor(brand)};padding:14px 20px;font-weight:bold">${escapeMarkup(pageName)}</header>
<main style="padding:20px;max-width:640px"><h1 style="font-size:1.5rem">${escapeMarkup(title)}</h1>${html}${back}</main>
</body></html>
`,
  };
}
