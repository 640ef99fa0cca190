/**
 * The e-mail subscription form of a status page: where it posts and which of the page's
 * components (its monitors, labelled as the page shows them) a visitor may choose. Null when
 * subscriptions are off, so the page shows no form. Every language variant of the page posts to
 * the page's one route (below its root) and names its language, which the subscriber then
 * receives their mails in (subscribers/subscriber-language.ts).
 */
import { slugBasePath } from './hrefs.ts';
import type { PageContext } from './page-context.ts';

export interface SubscribeView {
  action: string;
  /** The language of the page variant the form is on. */
  locale: string;
  components: { id: string; label: string }[];
}

export function subscribeView(context: Pick<PageContext, 'rows' | 'rootPath' | 'page' | 'i18n'>, options: { enabled: boolean; formOrigin: string | null }): SubscribeView | null {
  if (!options.enabled) return null;
  // A static copy posts to the server's route for the page, by slug on the main host.
  const action = options.formOrigin ? `${options.formOrigin}${slugBasePath('', context.page.slug)}/subscribe` : `${context.rootPath}/subscribe`;
  return { action, locale: context.i18n.locale, components: context.rows.map((row) => ({ id: row.monitorId, label: row.label })) };
}
