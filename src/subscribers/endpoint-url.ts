/**
 * A receiver's URL as the subscribe form and the operators' script take it: an absolute https URL
 * (http only where the operator allows private targets, for tests), no credentials in it, at most
 * 2,000 characters. Which channel it is follows from its host: Slack, Discord and Microsoft Teams
 * incoming webhooks get a message in their own format, anything else Statuspage's JSON, signed.
 * Pure; the address check after DNS is endpoint-egress.ts.
 */
import type { EndpointChannel } from './store.ts';

export type EndpointUrlProblem = 'invalid' | 'notHttps' | 'credentials';

export interface EndpointUrl {
  url: string;
  host: string;
  channel: EndpointChannel;
}

const MAX_URL_LENGTH = 2_000;

/** The chat service an incoming-webhook URL belongs to, by host and path; 'webhook' otherwise. */
export function channelOf(url: URL): EndpointChannel {
  const host = url.hostname.toLowerCase();
  if (host === 'hooks.slack.com' && url.pathname.startsWith('/services/')) return 'slack';
  if ((host === 'discord.com' || host === 'discordapp.com' || host === 'ptb.discord.com' || host === 'canary.discord.com') && url.pathname.startsWith('/api/webhooks/')) return 'discord';
  // Teams: the Workflows (Power Automate) webhooks and the older Office 365 connectors.
  if (host.endsWith('.webhook.office.com') || host.endsWith('.logic.azure.com') || host.endsWith('.api.powerplatform.com')) return 'teams';
  return 'webhook';
}

export function parseEndpointUrl(raw: string | null | undefined, options: { allowHttp: boolean }): EndpointUrl | { problem: EndpointUrlProblem } {
  const text = (raw ?? '').trim();
  if (text.length === 0 || text.length > MAX_URL_LENGTH || /[\s\u0000-\u001f\u007f]/.test(text) || !URL.canParse(text)) return { problem: 'invalid' };
  const url = new URL(text);
  if (url.protocol !== 'https:' && !(options.allowHttp && url.protocol === 'http:')) return { problem: 'notHttps' };
  if (url.username !== '' || url.password !== '') return { problem: 'credentials' };
  if (url.hostname === '') return { problem: 'invalid' };
  url.hash = '';
  return { url: url.href, host: url.hostname.replace(/^\[|\]$/g, '').toLowerCase(), channel: channelOf(url) };
}
