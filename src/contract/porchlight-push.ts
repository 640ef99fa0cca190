/**
 * Porchlight's own push channel, as both sides of the house know it: the site's push route
 * (src/server/push) and the embedded API (src/service), which meet only over HTTP.
 *
 * Beyond the spec's eight events, the embedded API announces status page changes on this one
 * channel (a chat channel whose webhook URL is a Porchlight push route), because nothing in the
 * spec announces them; other channels never see this event. A site against an API that sends
 * only the eight keeps pages fresh by reading the list at least every CACHE_FRESH_SECONDS.
 */

/** The path of the site's push route: `<site origin>/_porchlight/push/<token>`. */
export const PORCHLIGHT_PUSH_PATH = '/_porchlight/push/';

/** The X-Porchlight-Event of a status page created, changed or deleted (not a channel flag). */
export const PAGE_CHANGED_EVENT = 'onStatusPageChanged';

/** Whether a webhook URL is a Porchlight site's push route. */
export function isPorchlightPushUrl(url: string | null | undefined): boolean {
  if (!url) return false;
  try {
    return new URL(url).pathname.startsWith(PORCHLIGHT_PUSH_PATH);
  } catch {
    return false;
  }
}
