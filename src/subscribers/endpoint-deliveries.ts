/**
 * Webhook and chat subscriptions, between the routes (or the operators' script) and the outbox:
 * taking a URL (checked, then resolved and checked against the egress policy before anything is
 * stored), confirming it by its first delivery (a signed `ping` for a webhook, a first message for
 * a channel, answered 2xx, or nothing is kept), and building each outbox delivery's request.
 */
import type { StatusPage } from '../contract/index.ts';
import { DEFAULT_LOCALE, findLocale, subscriptionText, translator, safeBrandColor, DEFAULT_BRAND_COLOR } from '../site/public.ts';
import { chatMessage, type ChatContent } from './chat-message.ts';
import type { EndpointEgress } from './endpoint-egress.ts';
import { EndpointEgressError } from './endpoint-egress.ts';
import type { EndpointSend } from './endpoint-transport.ts';
import { parseEndpointUrl, type EndpointUrlProblem } from './endpoint-url.ts';
import type { PageAddress } from './mail-view.ts';
import { storedEventOf, storedMailFor } from './outbox-sender.ts';
import { manageLink, subscribeUrls } from './page-address.ts';
import type { DueDelivery, EndpointChannel, SubscriberStore } from './store.ts';
import { manageToken } from './tokens.ts';
import { pingPayload, withMeta } from './webhook-payload.ts';
import { newSigningSecret, signedHeaders } from './webhook-signing.ts';

export type EndpointProblem = EndpointUrlProblem | 'refused' | 'unresolvable' | 'exists' | 'unconfirmed';

export type EndpointSubscription =
  | { ok: true; id: string; channel: EndpointChannel; host: string; /** The signing secret, shown this once (webhooks only). */ secret: string | null }
  | { ok: false; problem: EndpointProblem; /** The receiver's answer to the first delivery, when it had one. */ status?: number };

export interface EndpointDeps {
  store: SubscriberStore;
  egress: EndpointEgress;
  send: EndpointSend;
  now?: () => number;
}

const wordsOf = (locale: string | null) => subscriptionText(translator(findLocale(locale ?? '') ?? DEFAULT_LOCALE));

function unsubscribeUrl(store: SubscriberStore, manageBase: string, subscriberId: string, locale: string | null): string {
  return manageLink(manageBase, manageToken(store.secret(), subscriberId), locale ?? DEFAULT_LOCALE);
}

/** The Standard Webhooks message id: one per (subscriber, event), the same on every retry. */
export const messageId = (subscriberId: string, eventId: number | 'ping') => `msg_${subscriberId}_${eventId}`;

export async function subscribeEndpoint(
  deps: EndpointDeps,
  page: StatusPage,
  address: PageAddress,
  input: { url: string | null; contactEmail: string | null; components: readonly string[]; locale: string | null },
): Promise<EndpointSubscription> {
  const now = deps.now ?? Date.now;
  const parsed = parseEndpointUrl(input.url, { allowHttp: deps.egress.allowPrivate });
  if ('problem' in parsed) return { ok: false, problem: parsed.problem };
  try {
    await deps.egress.resolve(parsed.host);
  } catch (error) {
    return { ok: false, problem: error instanceof EndpointEgressError ? error.reason : 'unresolvable' };
  }
  const secret = parsed.channel === 'webhook' ? newSigningSecret() : null;
  const id = await deps.store.subscribeEndpoint(page.id, { channel: parsed.channel, url: parsed.url, host: parsed.host, signingSecret: secret, contactEmail: input.contactEmail }, input.components, now(), input.locale);
  if (!id) return { ok: false, problem: 'exists' };
  const unsubscribe = unsubscribeUrl(deps.store, subscribeUrls(address).manageBase, id, input.locale);
  const words = wordsOf(input.locale);
  let body: string;
  let headers: Record<string, string> = {};
  if (secret) {
    body = JSON.stringify(withMeta(pingPayload(page, address), unsubscribe));
    headers = signedHeaders(secret, messageId(id, 'ping'), now(), body);
  } else {
    const home = `${address.origin}${address.basePath}/`;
    const content: ChatContent = { title: page.name, text: words.channelConfirmedBody(page.name), link: home, linkLabel: words.detailsLink, unsubscribeUrl: unsubscribe, unsubscribeLabel: words.footerUnsubscribe, color: safeBrandColor(page.brandColor) ?? DEFAULT_BRAND_COLOR };
    body = JSON.stringify(chatMessage(parsed.channel as Exclude<EndpointChannel, 'webhook'>, content));
  }
  const answer = await deps.send({ url: parsed.url, body, headers });
  if ('status' in answer && answer.status >= 200 && answer.status < 300) {
    await deps.store.confirmEndpoint(id, now());
    return { ok: true, id, channel: parsed.channel, host: parsed.host, secret };
  }
  // Not confirmed: nothing is kept, the visitor is told why.
  await deps.store.remove(id);
  if ('error' in answer && answer.error === 'refused') return { ok: false, problem: 'refused' };
  return { ok: false, problem: 'unconfirmed', ...('status' in answer && { status: answer.status }) };
}

/** The request of one outbox delivery, or null when its event has no form for this channel. */
export function deliveryRequest(store: SubscriberStore, due: DueDelivery, now: number): { body: string; headers: Record<string, string> } | null {
  const stored = storedEventOf(due.mail);
  if (due.channel === 'webhook') {
    if (!stored?.hook || !stored.manageBase || !due.signingSecret) return null;
    const body = JSON.stringify(withMeta(stored.hook, unsubscribeUrl(store, stored.manageBase, due.subscriberId, due.locale)));
    return { body, headers: signedHeaders(due.signingSecret, messageId(due.subscriberId, due.eventId), now, body) };
  }
  const mail = storedMailFor(due.mail, due.locale);
  if (!mail) return null;
  const words = wordsOf(mail.locale);
  const unsubscribe = unsubscribeUrl(store, mail.manageBase, due.subscriberId, mail.locale);
  const content: ChatContent = { title: mail.subject, text: mail.text, link: mail.pageUrl, linkLabel: words.detailsLink, unsubscribeUrl: unsubscribe, unsubscribeLabel: words.footerUnsubscribe, color: mail.brandColor };
  return { body: JSON.stringify(chatMessage(due.channel, content)), headers: {} };
}
