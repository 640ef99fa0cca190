/** The served OpenAPI document states the body limit the API applies, not a fixed figure. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src/service/index.ts';
import { DEFAULT_MAX_BODY_BYTES } from '../../src/service/http/body.ts';
import { openApiText } from '../../src/service/http/openapi-route.ts';

type Document = { components: { responses: Record<string, { description: string }> } };

describe('the 413 of the OpenAPI document', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ databasePath: ':memory:', seedDemo: true, scheduler: false, maxBodyBytes: 2048, log: () => undefined });
  });
  afterAll(() => service.close());

  it('names the limit this API was started with, and refuses a body over it', async () => {
    const document = (await (await fetch(`${service.url}/openapi.json`)).json()) as Document;
    expect(document.components.responses.Error413?.description).toBe('payload_too_large: body over 2 KiB (MAX_BODY_BYTES); the connection is closed');
    const refused = await fetch(`${service.url}/monitors`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.demo!.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x'.repeat(4096) }),
    });
    expect(refused.status).toBe(413);
  });

  it('names the default in the committed document', () => {
    expect(DEFAULT_MAX_BODY_BYTES).toBe(1024 * 1024);
    expect(JSON.parse(openApiText()).components.responses.Error413.description).toMatch(/^payload_too_large: body over 1 MiB \(MAX_BODY_BYTES\)/);
  });
});
