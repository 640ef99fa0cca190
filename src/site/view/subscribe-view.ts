/**
 * The e-mail subscription form of a status page: where it posts and which of the page's
 * components (its monitors, labelled as the page shows them) a visitor may choose. Null when
 * subscriptions are off, so the page shows no form.
 */
import { slugBasePath } from './hrefs.ts';
import type { PageContext } from './page-context.ts';

export interface SubscribeView {
  action: string;
  components: { id: string; label: string }[];
}

export function subscribeView(context: Pick<PageContext, 'rows' | 'basePath' | 'page'>, options: { enabled: boolean; formOrigin: string | null }): SubscribeView | null {
  if (!options.enabled) return null;
  // A static copy posts to the server's route for the page, by slug on the main host.
  const action = options.formOrigin ? `${options.formOrigin}${slugBasePath('', context.page.slug)}/subscribe` : `${context.basePath}/subscribe`;
  return { action, components: context.rows.map((row) => ({ id: row.monitorId, label: row.label })) };
}
