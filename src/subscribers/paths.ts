/**
 * The subscription routes' paths, below a page's root: `/<slug>/subscribe[/confirm|/manage]` on
 * the main host, `/subscribe[/confirm|/manage]` on a page's custom domain. The front server
 * routes these (GET, HEAD and POST) to the subscriptions thread before its method gate.
 */
export const SUBSCRIPTION_PATH = /^(?:\/[^/?#]+)?\/subscribe(?:\/(?:confirm|manage))?\/?(?:\?[^#]*)?$/;

export const SUBSCRIPTION_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST']);
