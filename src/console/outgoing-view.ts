/**
 * The preview's outside half (outgoing-preview.ts) as HTML: the subscribers' e-mail as its
 * subject and plain-text body, and the pasted link's card as its title, description and address.
 * Text only: the console's pages allow no frame and no script, and text is what a phone reads.
 */
import type { Translator } from '../site/i18n/translator.ts';
import { html, type Html } from './html.ts';
import type { OutgoingPreview } from './outgoing-preview.ts';

export function outgoingBox(i18n: Translator, preview: OutgoingPreview | null): Html {
  if (!preview || !preview.mail) {
    return html`<section class="preview" aria-labelledby="mail-preview-heading"><h2 id="mail-preview-heading">${i18n.t('console.mailPreviewHeading')}</h2><p>${i18n.t('console.noPageShows')}</p></section>`;
  }
  return html`<section class="preview" aria-labelledby="mail-preview-heading"><h2 id="mail-preview-heading">${i18n.t('console.mailPreviewHeading')}</h2>
<p>${i18n.t('console.notSentYet', { name: preview.pageName })}</p>
<p><strong>${i18n.t('console.mailSubject')}</strong> <span id="mail-preview-subject">${preview.mail.subject}</span></p>
<pre id="mail-preview-text" dir="auto">${preview.mail.text}</pre></section>
<section class="preview" aria-labelledby="card-preview-heading"><h2 id="card-preview-heading">${i18n.t('console.cardPreviewHeading')}</h2>
<figure class="card-preview" id="card-preview"><figcaption><strong>${preview.card.title}</strong></figcaption><p>${preview.card.description}</p><p dir="ltr">${preview.card.url}</p></figure></section>`;
}
