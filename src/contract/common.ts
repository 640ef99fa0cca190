/**
 * Shapes shared by every resource of the Monitoring and Status Service API.
 * Response schemas are lenient (unknown fields are dropped, "not shown" fields optional);
 * request schemas are strict about types, since they guard the store.
 */
import { z } from 'zod';

export const idSchema = z.string().min(1);
export const timestampSchema = z.string().min(1);

/** The instants request input may name: from 1970-01-01 to 9999-12-31 (UTC), inclusive. */
export const EARLIEST_INPUT_TIME = '1970-01-01T00:00:00.000Z';
export const LATEST_INPUT_TIME = '9999-12-31T23:59:59.999Z';

/**
 * ISO 8601 date-time with a zone (Z or offset), as request input, within EARLIEST/LATEST_INPUT_TIME
 * once converted to UTC (so `9999-12-31T23:00:00-05:00`, in year 10000, is refused too).
 */
export const isoDateTimeInput = z.iso.datetime({ offset: true, abort: true }).refine((value) => {
  const time = Date.parse(value);
  return time >= Date.parse(EARLIEST_INPUT_TIME) && time <= Date.parse(LATEST_INPUT_TIME);
}, 'must be between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59Z');

export const paginationSchema = z.object({
  total: z.number().int().nonnegative(),
  limit: z.number().int().nonnegative(),
  offset: z.number().int().nonnegative(),
  hasMore: z.boolean(),
});
export type Pagination = z.infer<typeof paginationSchema>;

/** `{ data }` envelope of a single resource. */
export const singleEnvelope = <T extends z.ZodType>(item: T) => z.object({ data: item });

/**
 * `{ data, pagination }` envelope as received: items stay unparsed so one odd record
 * can be dropped without failing the whole list; pagination may be missing.
 */
export const rawListEnvelopeSchema = z.object({
  data: z.array(z.unknown()),
  pagination: paginationSchema.optional(),
});

export const errorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** Error codes the embedded service answers with (see docs/api-contract.md). */
export const ERROR_CODES = [
  'invalid_json',
  'validation_error',
  'unsupported_media_type',
  'unauthorized',
  'not_found',
  'method_not_allowed',
  'conflict',
  'invalid_state',
  'limit_reached',
  'payload_too_large',
  'rate_limited',
  'internal_error',
  'service_unavailable',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const listQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).default(0),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

export const checkListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

/** Reference to a monitor as embedded in incidents, maintenance windows and page links. */
export const monitorRefSchema = z.object({ id: idSchema, name: z.string() });
export type MonitorRef = z.infer<typeof monitorRefSchema>;

export const affectedMonitorSchema = z.object({ monitor: monitorRefSchema });
export type AffectedMonitor = z.infer<typeof affectedMonitorSchema>;

export const httpUrlInput = z
  .url({ protocol: /^https?$/, hostname: z.regexes.hostname })
  .max(2048);

export const hexColorInput = z
  .string()
  .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'must be a hex color such as #1a7f37');

export const monitorIdsInput = z.array(idSchema).max(50);
