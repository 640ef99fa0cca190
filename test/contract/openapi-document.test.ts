/** The OpenAPI document: valid OpenAPI 3.1, equal to the committed docs/openapi.json, complete. */
import { readFile } from 'node:fs/promises';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/contract/openapi.ts';
import { openApiText } from '../../src/service/http/openapi-route.ts';

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator)', async () => {
    const validator = new Validator();
    const result = await validator.validate(openApiDocument());
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('equals the committed docs/openapi.json (run npm run openapi after changing the contract)', async () => {
    const committed = await readFile(new URL('../../docs/openapi.json', import.meta.url), 'utf8');
    expect(committed).toBe(openApiText());
  });

  it('describes every endpoint of the spec with its auth, parameters, body and errors', () => {
    const document = openApiDocument();
    const operations = Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
    expect(operations.sort()).toEqual(
      [
        'GET /api/v1/monitors', 'POST /api/v1/monitors', 'GET /api/v1/monitors/{id}', 'PATCH /api/v1/monitors/{id}', 'DELETE /api/v1/monitors/{id}',
        'GET /api/v1/monitors/{id}/checks', 'POST /api/v1/monitors/{id}/run',
        'GET /api/v1/status-pages', 'POST /api/v1/status-pages', 'GET /api/v1/status-pages/{id}', 'PATCH /api/v1/status-pages/{id}', 'DELETE /api/v1/status-pages/{id}',
        'GET /api/v1/incidents', 'POST /api/v1/incidents', 'GET /api/v1/incidents/{id}', 'PATCH /api/v1/incidents/{id}', 'DELETE /api/v1/incidents/{id}',
        'GET /api/v1/maintenance', 'POST /api/v1/maintenance', 'GET /api/v1/maintenance/{id}', 'PATCH /api/v1/maintenance/{id}', 'DELETE /api/v1/maintenance/{id}',
        'POST /api/v1/maintenance/{id}/start', 'POST /api/v1/maintenance/{id}/complete', 'POST /api/v1/maintenance/{id}/cancel',
        'GET /api/v1/organization',
        'GET /api/v1/notifications', 'POST /api/v1/notifications', 'GET /api/v1/notifications/{id}', 'PATCH /api/v1/notifications/{id}', 'DELETE /api/v1/notifications/{id}',
        'GET /api/v1/health', 'GET /api/v1/openapi.json',
      ].sort(),
    );
    expect(document.security).toEqual([{ bearerAuth: [] }]);
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    const list = document.paths['/api/v1/monitors']?.get as { parameters: { name: string; schema: { maximum: number; default: number } }[]; responses: Record<string, unknown> };
    expect(list.parameters.map((parameter) => [parameter.name, parameter.schema.default])).toEqual([['limit', 20], ['offset', 0]]);
    expect(Object.keys(list.responses)).toEqual(['200', '400', '401', '429', '500', '503']);
    expect(document.components.responses.Error429?.headers).toHaveProperty('Retry-After');
    expect(document.components.schemas.CreateIncident).toMatchObject({ required: ['monitorIds', 'title', 'message'] });
  });
});
