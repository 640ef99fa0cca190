/**
 * `porchlight subscribe webhook|slack|discord|teams URL --page SLUG`: subscribes a receiver the way
 * the page's subscribe form does, by posting to the site's own public route (`/<slug>/subscribe`,
 * asking for JSON). So the running Porchlight applies the same checks (HTTPS, no credentials, the
 * egress policy after DNS), sends the same signed ping and stores nothing when it is refused; the
 * CLI needs no API key and never sees the database. A webhook's signing secret is printed once.
 */
import { SiteError, UsageError } from '../cli-error.ts';
import { text, texts, type Command, type SiteCommand } from '../command.ts';
import { channelOf } from '../../subscribers/endpoint-url.ts';

export const SUBSCRIBE_CHANNELS = ['webhook', 'slack', 'discord', 'teams'] as const;
export type SubscribeChannel = (typeof SUBSCRIBE_CHANNELS)[number];

const CHANNEL_NAMES: Record<SubscribeChannel, string> = { webhook: 'a webhook', slack: 'a Slack incoming webhook', discord: 'a Discord webhook', teams: 'a Microsoft Teams webhook' };

/** What will be posted: checked on this side only as far as the words go (the site checks the rest). */
export interface SubscribeRequest {
  subscribeUrl: string;
  form: URLSearchParams;
}

/** The form's fields, from the command line; the receiver's kind must match what its URL is. */
export function subscribeRequest(channel: SubscribeChannel, url: string, page: string | undefined, contact: string | undefined, components: readonly string[], siteUrl: string): SubscribeRequest {
  if (page === undefined || !page.trim()) throw new UsageError('--page SLUG is required');
  const kind = URL.canParse(url.trim()) ? channelOf(new URL(url.trim())) : null;
  if (kind !== null && kind !== channel) {
    throw new UsageError(`${url} is ${CHANNEL_NAMES[kind]}, not ${CHANNEL_NAMES[channel]}; use porchlight subscribe ${kind}`);
  }
  if (contact !== undefined && channel !== 'webhook') throw new UsageError('--contact is for webhooks only (a chat channel is told in the channel itself)');
  const form = new URLSearchParams({ webhook_url: url });
  if (contact !== undefined) form.set('contact_email', contact);
  for (const component of components) form.append('component', component);
  const site = new URL(siteUrl);
  const root = site.pathname.endsWith('/') ? site.pathname : `${site.pathname}/`;
  return { subscribeUrl: new URL(`${root}${encodeURIComponent(page.trim())}/subscribe`, site.origin).href, form };
}

interface Accepted {
  ok: true;
  id: string;
  channel: string;
  page: string;
  secret: string | null;
}

function isAnswer(value: unknown): value is Accepted | { ok: false; problem: string; message: string } {
  return typeof value === 'object' && value !== null && 'ok' in value;
}

async function post(request: SubscribeRequest, page: string): Promise<Accepted> {
  let response: Response;
  try {
    // The site sends the ping and waits for the receiver's answer before it replies: a generous bound.
    response = await fetch(request.subscribeUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: request.form,
      redirect: 'error',
      signal: AbortSignal.timeout(60_000),
    });
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error && 'code' in error.cause ? String(error.cause.code) : error instanceof Error ? error.name : 'failed';
    throw new SiteError(`site unreachable at ${new URL(request.subscribeUrl).origin} (${cause})`);
  }
  const json: unknown = (response.headers.get('content-type') ?? '').startsWith('application/json') ? await response.json().catch(() => null) : (await response.body?.cancel(), null);
  if (isAnswer(json)) {
    if (json.ok) return json;
    throw new SiteError(`refused: ${json.message} (${json.problem}, ${response.status})`);
  }
  if (response.status === 404) throw new SiteError(`no public page "${page}" at ${new URL(request.subscribeUrl).origin} (404)`);
  if (response.status === 503) throw new SiteError('the site is starting or subscriptions are off (503)');
  throw new SiteError(`the site does not take webhook subscriptions here (${response.status}): are subscriptions on?`);
}

function subscribeCommand(channel: SubscribeChannel): SiteCommand {
  return {
    words: ['subscribe', channel],
    needs: 'site',
    summary: channel === 'webhook' ? 'subscribe a webhook to a page (signed, Statuspage format); prints its secret once' : `subscribe ${CHANNEL_NAMES[channel]} to a page`,
    usage: `URL --page SLUG${channel === 'webhook' ? ' [--contact EMAIL]' : ''} [--component NAME...]`,
    optionHelp: [
      '--page SLUG           the page (its slug, as in its address)',
      ...(channel === 'webhook' ? ['--contact EMAIL       told by mail if deliveries fail for a day'] : []),
      '--component NAME      only changes of this component (its id or the name the page shows; repeat)',
    ],
    options: { page: { type: 'string' }, contact: { type: 'string' }, component: { type: 'string', multiple: true } },
    examples:
      channel === 'webhook'
        ? ['porchlight subscribe webhook https://oncall.example.com/hooks/status --page acme --contact ops@example.com', 'porchlight subscribe webhook https://ci.example.com/hook --page acme --component API --json']
        : [`porchlight subscribe ${channel} '${channel === 'slack' ? 'https://hooks.slack.com/services/T000/B000/XXXX' : channel === 'discord' ? 'https://discord.com/api/webhooks/123/abc' : 'https://example.webhook.office.com/webhookb2/...'}' --page acme`],
    positionals: ['URL'],
    async run({ siteUrl }, { values, positionals }) {
      const page = text(values, 'page');
      const request = subscribeRequest(channel, positionals[0] ?? '', page, text(values, 'contact'), texts(values, 'component'), siteUrl);
      const done = await post(request, page ?? '');
      const json = { id: done.id, page: done.page, channel: done.channel, secret: done.secret };
      const human = done.secret
        ? `subscribed ${done.id} (webhook) to ${done.page}; the receiver answered the signed ping.\nSigning secret (shown this once, keep it; verify each request with it):\n${done.secret}`
        : `subscribed ${done.id} (${done.channel}) to ${done.page}; the confirmation message arrived in the channel.`;
      return { human, json };
    },
  };
}

export const subscribeCommands: readonly Command[] = SUBSCRIBE_CHANNELS.map(subscribeCommand);
