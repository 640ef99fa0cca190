/**
 * The OpenAPI 3.1 document of the Monitoring and Status Service API, generated from the same zod
 * schemas that validate requests and responses (z.toJSONSchema, JSON Schema 2020-12, which
 * OpenAPI 3.1 uses as is). Request bodies are described as the schemas accept them (io: input,
 * so defaulted fields are optional), resources as the API returns them. Where the spec says "not
 * shown" the document describes what the embedded implementation does (docs/api-contract.md).
 * `npm run openapi` writes it to docs/openapi.json; the embedded API serves it at
 * GET /api/v1/openapi.json without a key.
 */
import { z } from 'zod';
import { checkListQuerySchema, errorBodySchema, ERROR_CODES, listQuerySchema, paginationSchema } from './common.ts';
import { createIncidentSchema, incidentSchema, updateIncidentSchema } from './incident.ts';
import { createMaintenanceSchema, maintenanceSchema, updateMaintenanceSchema } from './maintenance.ts';
import { checkSchema, createMonitorSchema, monitorSchema, updateMonitorSchema } from './monitor.ts';
import { createChannelSchema, notificationChannelSchema, updateChannelSchema } from './notification.ts';
import { organizationSchema } from './organization.ts';
import { createStatusPageSchema, pageMonitorSchema, statusPageSchema, updateStatusPageSchema } from './status-page.ts';

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' });
  return rest;
}

/** Resources as returned (lenient: clients must ignore unknown fields). */
const RESOURCES = {
  Monitor: monitorSchema,
  Check: checkSchema,
  // The client decodes linked monitors one by one; the document says what each one is.
  StatusPage: statusPageSchema.extend({ monitors: z.array(pageMonitorSchema) }),
  Incident: incidentSchema,
  MaintenanceWindow: maintenanceSchema,
  Organization: organizationSchema,
  NotificationChannel: notificationChannelSchema,
  Pagination: paginationSchema,
  Error: errorBodySchema.extend({
    error: errorBodySchema.shape.error.extend({ code: z.enum(ERROR_CODES) }),
  }),
} satisfies Record<string, z.ZodType>;

const INPUTS = {
  CreateMonitor: createMonitorSchema,
  UpdateMonitor: updateMonitorSchema,
  CreateStatusPage: createStatusPageSchema,
  UpdateStatusPage: updateStatusPageSchema,
  CreateIncident: createIncidentSchema,
  UpdateIncident: updateIncidentSchema,
  CreateMaintenance: createMaintenanceSchema,
  UpdateMaintenance: updateMaintenanceSchema,
  CreateChannel: createChannelSchema,
  UpdateChannel: updateChannelSchema,
} satisfies Record<string, z.ZodType>;

type Resource = keyof typeof RESOURCES;
type Input = keyof typeof INPUTS;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const ERROR_TEXT: Record<number, string> = {
  400: 'invalid_json or validation_error (details name the fields)',
  401: 'unauthorized: missing or invalid API key',
  403: 'limit_reached',
  404: 'not_found: unknown route or id, or another organization\'s resource',
  409: 'conflict (slug or custom domain in use) or invalid_state (transition from the wrong state)',
  413: 'payload_too_large: body over MAX_BODY_BYTES; the connection is closed',
  415: 'unsupported_media_type: a body without Content-Type: application/json',
  429: 'rate_limited: over the key\'s rate limit',
  500: 'internal_error',
  503: 'service_unavailable: the store (PostgreSQL) cannot be used right now; nothing was kept, retry after Retry-After',
};

interface Endpoint {
  method: 'get' | 'post' | 'patch' | 'delete';
  /** OpenAPI path below /api/v1, e.g. `/monitors/{id}`. */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  query?: 'list' | 'checks';
  body?: Input;
  /** 200/201 with `{ data }` of a resource, `{ data, pagination }` of a list, or 204. */
  success: { status: 200 | 201; item: Resource; list?: boolean } | { status: 204 };
  /** Besides 401, 429, 500 and 503, which every keyed endpoint can answer. */
  errors: number[];
  /** No key needed (health, this document). */
  open?: boolean;
}

const crud = (tag: string, base: string, item: Resource, create: Input, update: Input, name: string, extra: { createErrors?: number[]; updateErrors?: number[]; deleteErrors?: number[] } = {}): Endpoint[] => [
  { method: 'get', path: base, operationId: `list${name}s`, tag, summary: `List ${tag.toLowerCase()}`, query: 'list', success: { status: 200, item, list: true }, errors: [400] },
  { method: 'get', path: `${base}/{id}`, operationId: `get${name}`, tag, summary: `Get one ${name}`, success: { status: 200, item }, errors: [404] },
  { method: 'post', path: base, operationId: `create${name}`, tag, summary: `Create a ${name}`, body: create, success: { status: 201, item }, errors: [400, 413, 415, ...(extra.createErrors ?? [])] },
  { method: 'patch', path: `${base}/{id}`, operationId: `update${name}`, tag, summary: `Update a ${name}`, body: update, success: { status: 200, item }, errors: [400, 404, 413, 415, ...(extra.updateErrors ?? [])] },
  { method: 'delete', path: `${base}/{id}`, operationId: `delete${name}`, tag, summary: `Delete a ${name}`, success: { status: 204 }, errors: [404, ...(extra.deleteErrors ?? [])] },
];

const transition = (action: 'start' | 'complete' | 'cancel', summary: string): Endpoint => ({
  method: 'post',
  path: `/maintenance/{id}/${action}`,
  operationId: `${action}Maintenance`,
  tag: 'Maintenance',
  summary,
  success: { status: 200, item: 'MaintenanceWindow' },
  errors: [404, 409],
});

export const ENDPOINTS: readonly Endpoint[] = [
  ...crud('Monitors', '/monitors', 'Monitor', 'CreateMonitor', 'UpdateMonitor', 'Monitor', { createErrors: [403] }),
  { method: 'get', path: '/monitors/{id}/checks', operationId: 'listChecks', tag: 'Monitors', summary: "A monitor's checks, newest first", query: 'checks', success: { status: 200, item: 'Check', list: true }, errors: [400, 404] },
  { method: 'post', path: '/monitors/{id}/run', operationId: 'runCheck', tag: 'Monitors', summary: 'Run one check now; answers the new check', success: { status: 201, item: 'Check' }, errors: [404, 409] },
  ...crud('Status pages', '/status-pages', 'StatusPage', 'CreateStatusPage', 'UpdateStatusPage', 'StatusPage', { createErrors: [409], updateErrors: [409] }),
  ...crud('Incidents', '/incidents', 'Incident', 'CreateIncident', 'UpdateIncident', 'Incident'),
  ...crud('Maintenance', '/maintenance', 'MaintenanceWindow', 'CreateMaintenance', 'UpdateMaintenance', 'MaintenanceWindow', { updateErrors: [409], deleteErrors: [409] }),
  transition('start', 'Start a scheduled window (scheduled → in_progress)'),
  transition('complete', 'Complete a window in progress (in_progress → completed)'),
  transition('cancel', 'Cancel a scheduled window (scheduled → cancelled)'),
  { method: 'get', path: '/organization', operationId: 'getOrganization', tag: 'Organization', summary: 'The organization of the API key', success: { status: 200, item: 'Organization' }, errors: [] },
  ...crud('Notifications', '/notifications', 'NotificationChannel', 'CreateChannel', 'UpdateChannel', 'NotificationChannel'),
];

const idParameter = { name: 'id', in: 'path', required: true, schema: { type: 'string', minLength: 1 } };

function queryParameters(kind: 'list' | 'checks') {
  const properties = jsonSchema(kind === 'list' ? listQuerySchema : checkListQuerySchema, 'input').properties;
  const entries = properties !== null && typeof properties === 'object' ? Object.entries(properties) : [];
  return entries.map(([name, schema]) => ({ name, in: 'query', required: false, schema }));
}

const json = (schema: unknown) => ({ 'application/json': { schema } });

function successResponse(endpoint: Endpoint) {
  const rateHeaders = Object.fromEntries(RATE_HEADERS.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
  if (endpoint.success.status === 204) return { '204': { description: 'Done; no body', headers: rateHeaders } };
  const { item, list } = endpoint.success;
  const schema = list
    ? { type: 'object', properties: { data: { type: 'array', items: ref(item) }, pagination: ref('Pagination') }, required: ['data', 'pagination'] }
    : { type: 'object', properties: { data: ref(item) }, required: ['data'] };
  return { [String(endpoint.success.status)]: { description: list ? `A page of ${item} items` : `The ${item}`, headers: rateHeaders, content: json(schema) } };
}

function operation(endpoint: Endpoint) {
  const errors = endpoint.open ? [] : [...new Set([...endpoint.errors, 401, 429, 500, 503])].sort((a, b) => a - b);
  const parameters = [...(endpoint.path.includes('{id}') ? [idParameter] : []), ...(endpoint.query ? queryParameters(endpoint.query) : [])];
  return {
    operationId: endpoint.operationId,
    tags: [endpoint.tag],
    summary: endpoint.summary,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(endpoint.body ? { requestBody: { required: true, content: json(ref(endpoint.body)) } } : {}),
    responses: { ...successResponse(endpoint), ...Object.fromEntries(errors.map((status) => [String(status), { $ref: `#/components/responses/Error${status}` }])) },
  };
}

const RATE_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy'] as const;
const RATE_HEADER_TEXT: Record<(typeof RATE_HEADERS)[number], [string, JsonSchema]> = {
  'RateLimit-Limit': ['Requests allowed in the window', { type: 'integer' }],
  'RateLimit-Remaining': ['Requests left in the current window', { type: 'integer' }],
  'RateLimit-Reset': ['Seconds until the window ends', { type: 'integer' }],
  'RateLimit-Policy': ['`<limit>;w=<window seconds>`, e.g. `600;w=60`', { type: 'string' }],
};

function errorResponse(status: number, limits: DocumentLimits) {
  const headers: Record<string, unknown> = {};
  if (status === 429) headers['Retry-After'] = { description: 'Seconds until the window ends (at least 1)', schema: { type: 'integer', minimum: 1 } };
  if (status === 503) headers['Retry-After'] = { description: 'Seconds to wait before trying again', schema: { type: 'integer', minimum: 1 } };
  if (status === 401) headers['WWW-Authenticate'] = { description: 'Bearer challenge', schema: { type: 'string' } };
  return { description: errorText(status, limits), ...(Object.keys(headers).length > 0 ? { headers } : {}), content: json(ref('Error')) };
}

/** The API version the document describes (the `v1` of every path). */
export const API_VERSION = '1.0.0';

/** The limits the running API applies, which the document states as they are. */
export interface DocumentLimits {
  /** The largest request body (MAX_BODY_BYTES); unset: the document names the setting without a figure. */
  maxBodyBytes?: number;
}

const sizeText = (bytes: number): string =>
  bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;

function errorText(status: number, limits: DocumentLimits): string {
  if (status === 413 && limits.maxBodyBytes !== undefined) {
    return `payload_too_large: body over ${sizeText(limits.maxBodyBytes)} (MAX_BODY_BYTES); the connection is closed`;
  }
  return ERROR_TEXT[status] ?? 'Error';
}

export function openApiDocument(version: string = API_VERSION, limits: DocumentLimits = {}) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of ENDPOINTS) {
    const path = `/api/v1${endpoint.path}`;
    paths[path] = { ...paths[path], [endpoint.method]: operation(endpoint) };
  }
  paths['/api/v1/health'] = {
    get: {
      operationId: 'health',
      tags: ['Service'],
      summary: 'Liveness of the API (extension): no key, not rate limited',
      security: [],
      responses: { '200': { description: 'Up', content: json({ type: 'object', properties: { status: { const: 'ok' } }, required: ['status'] }) } },
    },
  };
  paths['/api/v1/openapi.json'] = {
    get: {
      operationId: 'openApiDocument',
      tags: ['Service'],
      summary: 'This document (extension): no key, not rate limited',
      security: [],
      responses: { '200': { description: 'The OpenAPI 3.1 document', content: json({ type: 'object' }) } },
    },
  };
  const statuses = [...new Set(ENDPOINTS.flatMap((endpoint) => [...endpoint.errors, 401, 429, 500, 503]))].sort((a, b) => a - b);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Monitoring and Status Service API',
      version,
      description:
        'Monitors, checks, status pages, incidents, maintenance windows, the organization and notification channels. ' +
        'Every response body is JSON; single resources come as `{ data }`, lists as `{ data, pagination }`, errors as `{ error: { code, message, details? } }`. ' +
        'Generated from the zod contract (src/contract/); see docs/api-contract.md.',
    },
    servers: [{ url: '/', description: 'The API origin; every path starts with /api/v1' }],
    security: [{ bearerAuth: [] }],
    tags: ['Monitors', 'Status pages', 'Incidents', 'Maintenance', 'Organization', 'Notifications', 'Service'].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'The organization\'s API key: `Authorization: Bearer <API_KEY>`' },
      },
      schemas: {
        ...Object.fromEntries(Object.entries(RESOURCES).map(([name, schema]) => [name, jsonSchema(schema, 'output')])),
        ...Object.fromEntries(Object.entries(INPUTS).map(([name, schema]) => [name, jsonSchema(schema, 'input')])),
      },
      headers: Object.fromEntries(RATE_HEADERS.map((name) => [name, { description: RATE_HEADER_TEXT[name][0], schema: RATE_HEADER_TEXT[name][1] }])),
      responses: Object.fromEntries(statuses.map((status) => [`Error${status}`, errorResponse(status, limits)])),
    },
  };
}
