import { z } from 'zod';
import { idSchema, timestampSchema, httpUrlInput } from './common.ts';

export const MONITOR_TYPES = ['http', 'tcp', 'ping'] as const;
export type MonitorType = (typeof MONITOR_TYPES)[number];

export const REGIONS = ['eu', 'us', 'asia'] as const;
export type Region = (typeof REGIONS)[number];

export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * Health a monitor can report. The hosted service documents only `up`; the others are
 * this implementation's and the site treats any value it does not know as unknown.
 */
export const MONITOR_STATUSES = ['up', 'down', 'degraded', 'maintenance', 'paused', 'pending'] as const;
export type MonitorStatus = (typeof MONITOR_STATUSES)[number];

export const CHECK_STATUSES = ['up', 'down'] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

const comparison = z.enum(['eq', 'ne', 'lt', 'lte', 'gt', 'gte']);
const textMatch = z.enum(['contains', 'not_contains', 'eq', 'ne']);

/** Assertion rules of HTTP checks; every rule must hold for the check to be up. */
export const ruleSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('status_code'), operator: comparison, value: z.number().int().min(100).max(599) }),
  z.object({ type: z.literal('response_time'), operator: z.enum(['lt', 'lte']), value: z.number().int().positive() }),
  z.object({ type: z.literal('body'), operator: textMatch, value: z.string().max(1000) }),
  z.object({
    type: z.literal('header'),
    name: z.string().min(1).max(200),
    operator: z.enum(['exists', 'contains', 'eq', 'ne']),
    value: z.string().max(1000).optional(),
  }),
]);
export type Rule = z.infer<typeof ruleSchema>;

/** A monitor as the API returns it. Fields absent from a response are undefined. */
export const monitorSchema = z.object({
  id: idSchema,
  name: z.string(),
  type: z.string(),
  active: z.boolean().optional(),
  interval: z.number().optional(),
  timeout: z.number().optional(),
  url: z.string().nullish(),
  host: z.string().nullish(),
  port: z.number().nullish(),
  method: z.string().nullish(),
  headers: z.record(z.string(), z.string()).nullish(),
  body: z.string().nullish(),
  regions: z.array(z.string()).optional(),
  autoIncidents: z.boolean().optional(),
  rules: z.array(z.unknown()).optional(),
  currentStatus: z.string().nullish(),
  lastStatus: z.string().nullish(),
  lastLatency: z.number().nullish(),
  lastCheckedAt: timestampSchema.nullish(),
  createdAt: timestampSchema.optional(),
  updatedAt: timestampSchema.optional(),
});
export type Monitor = z.infer<typeof monitorSchema>;

export const checkSchema = z.object({
  id: idSchema,
  monitorId: idSchema,
  status: z.string(),
  latency: z.number().nullish(),
  statusCode: z.number().nullish(),
  region: z.string().nullish(),
  checkedAt: timestampSchema,
  error: z.string().nullish(),
});
export type Check = z.infer<typeof checkSchema>;

const monitorFields = {
  name: z.string().trim().min(1).max(100),
  url: httpUrlInput,
  host: z.string().trim().min(1).max(253),
  port: z.number().int().min(1).max(65535),
  interval: z.number().int().min(10).max(86_400),
  timeout: z.number().int().min(1).max(60),
  method: z.enum(HTTP_METHODS),
  headers: z.record(z.string().min(1).max(200), z.string().max(4000)),
  body: z.string().max(65_536),
  regions: z.array(z.enum(REGIONS)).min(1).max(3),
  autoIncidents: z.boolean(),
  rules: z.array(ruleSchema).max(20),
  active: z.boolean(),
};

type TargetFields = { type: MonitorType; url?: string | undefined; host?: string | undefined; port?: number | undefined };

/** Each type needs its target: http a url, tcp host and port, ping a host. */
export function addTargetIssues(value: TargetFields, ctx: z.RefinementCtx): void {
  const need = (field: 'url' | 'host' | 'port') => {
    if (value[field] === undefined) {
      ctx.addIssue({ code: 'custom', path: [field], message: `${field} is required for ${value.type} monitors` });
    }
  };
  if (value.type === 'http') need('url');
  if (value.type === 'tcp') { need('host'); need('port'); }
  if (value.type === 'ping') need('host');
}

export const createMonitorObject = z.object({
  type: z.enum(MONITOR_TYPES),
  name: monitorFields.name,
  url: monitorFields.url.optional(),
  host: monitorFields.host.optional(),
  port: monitorFields.port.optional(),
  interval: monitorFields.interval.default(60),
  timeout: monitorFields.timeout.default(10),
  method: monitorFields.method.default('GET'),
  headers: monitorFields.headers.default({}),
  body: monitorFields.body.optional(),
  regions: monitorFields.regions.default(['eu']),
  autoIncidents: monitorFields.autoIncidents.default(false),
  rules: monitorFields.rules.default([]),
});
export const createMonitorSchema = createMonitorObject.superRefine(addTargetIssues);
export type CreateMonitorInput = z.input<typeof createMonitorSchema>;
export type CreateMonitor = z.output<typeof createMonitorSchema>;

/** PATCH accepts every create field but `type`, plus `active`; `null` clears an optional field. */
export const updateMonitorSchema = z.object({
  name: monitorFields.name.optional(),
  url: monitorFields.url.nullable().optional(),
  host: monitorFields.host.nullable().optional(),
  port: monitorFields.port.nullable().optional(),
  interval: monitorFields.interval.optional(),
  timeout: monitorFields.timeout.optional(),
  method: monitorFields.method.optional(),
  headers: monitorFields.headers.optional(),
  body: monitorFields.body.nullable().optional(),
  regions: monitorFields.regions.optional(),
  autoIncidents: monitorFields.autoIncidents.optional(),
  rules: monitorFields.rules.optional(),
  active: monitorFields.active.optional(),
});
export type UpdateMonitorInput = z.input<typeof updateMonitorSchema>;
