import { request, type Agent } from 'undici';
import { checkFailureIn, isTimeoutError, knownNetworkMessage, redact } from '../checks/describe-network-error.ts';
import type { EgressPolicy } from '../egress/egress-policy.ts';
import type { OrganizationEgress } from '../egress/organization-egress.ts';
import { guardedAgent } from '../egress/guarded-agent.ts';
import { retryableHttpStatus, type AttemptResult } from './attempt-result.ts';

const USER_AGENT = 'Porchlight-Notifier/1.0';

/** Parts of a webhook URL that can carry its secret token, for scrubbing error text. */
function secretsOf(url: string): string[] {
  const secrets = [url];
  if (URL.canParse(url)) {
    const parsed = new URL(url);
    secrets.push(parsed.pathname + parsed.search, parsed.pathname, parsed.search, parsed.username, parsed.password);
  }
  return secrets.filter((secret) => secret.length >= 3).sort((a, b) => b.length - a.length);
}

function describe(err: unknown, timeoutMs: number, url: string): string {
  if (isTimeoutError(err)) return `timed out after ${timeoutMs} ms`;
  const known = knownNetworkMessage(err);
  if (known !== null) return known;
  const raw = err instanceof Error ? err.message : String(err);
  return redact(raw, secretsOf(url)).slice(0, 300) || 'request failed';
}

/**
 * POSTs JSON to chat webhooks. Every connection is made through the egress policy of the channel's
 * organization (one keep-alive pool per policy); redirects are not followed (a webhook that
 * redirects is misconfigured). The URL never appears in a result or a log line.
 */
export class WebhookTransport {
  private readonly agents = new Map<EgressPolicy, Agent>();
  private readonly egress: OrganizationEgress;
  private readonly timeoutMs: number;

  constructor(timeoutMs: number, egress: OrganizationEgress) {
    this.timeoutMs = timeoutMs;
    this.egress = egress;
  }

  private agentFor(organizationId: string): Agent {
    const policy = this.egress.for(organizationId);
    let agent = this.agents.get(policy);
    if (!agent) {
      const timeoutMs = this.timeoutMs;
      agent = guardedAgent(policy, { connectTimeoutMs: timeoutMs, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
      this.agents.set(policy, agent);
    }
    return agent;
  }

  async post(organizationId: string, url: string, payload: unknown, headers: Record<string, string>, signal: AbortSignal): Promise<AttemptResult> {
    if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
      return { outcome: 'failed', statusCode: null, error: 'webhook URL is not an http(s) URL', retryable: false };
    }
    try {
      const response = await request(url, {
        method: 'POST',
        dispatcher: this.agentFor(organizationId),
        headers: { 'content-type': 'application/json; charset=utf-8', 'user-agent': USER_AGENT, ...headers },
        body: JSON.stringify(payload),
        signal: AbortSignal.any([signal, AbortSignal.timeout(this.timeoutMs)]),
      });
      await response.body.dump();
      const status = response.statusCode;
      if (status >= 200 && status < 300) return { outcome: 'delivered', statusCode: status };
      return { outcome: 'failed', statusCode: status, error: `webhook answered HTTP ${status}`, retryable: retryableHttpStatus(status) };
    } catch (err) {
      // The egress policy refused the address: trying again would only be refused again.
      const refused = checkFailureIn(err);
      if (refused) return { outcome: 'failed', statusCode: null, error: redact(refused.message, secretsOf(url)), retryable: false };
      return { outcome: 'failed', statusCode: null, error: describe(err, this.timeoutMs, url), retryable: true };
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.agents.values()].map((agent) => agent.destroy()));
  }
}
