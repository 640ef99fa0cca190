import { z } from 'zod';
import { idSchema, timestampSchema, affectedMonitorSchema, isoDateTimeInput, monitorIdsInput } from './common.ts';

/** Created windows start `scheduled`; a cancelled scheduled window goes to `cancelled`. */
export const MAINTENANCE_STATUSES = ['scheduled', 'in_progress', 'completed', 'cancelled'] as const;
export type MaintenanceStatus = (typeof MAINTENANCE_STATUSES)[number];

export const maintenanceSchema = z.object({
  id: idSchema,
  title: z.string(),
  description: z.string().nullish(),
  status: z.string(),
  scheduledStart: timestampSchema,
  scheduledEnd: timestampSchema,
  startedAt: timestampSchema.nullish(),
  completedAt: timestampSchema.nullish(),
  cancelledAt: timestampSchema.nullish(),
  monitorIds: z.array(idSchema).optional(),
  monitors: z.array(affectedMonitorSchema).default([]),
  createdAt: timestampSchema.optional(),
  updatedAt: timestampSchema.optional(),
});
export type MaintenanceWindow = z.infer<typeof maintenanceSchema>;

const windowFields = {
  title: z.string().trim().min(1).max(200),
  description: z.string().max(10_000),
  scheduledStart: isoDateTimeInput,
  scheduledEnd: isoDateTimeInput,
  monitorIds: monitorIdsInput,
};

/** Longest maintenance window: a longer one is almost always a typo in a date, and would hide a monitor's alerts for months. */
export const MAX_MAINTENANCE_WINDOW_DAYS = 31;

/** What is wrong with a window's span (ends before it starts, or lasts too long), or null. */
export function windowSpanProblem(scheduledStart: string, scheduledEnd: string): string | null {
  const span = Date.parse(scheduledEnd) - Date.parse(scheduledStart);
  // An unparsable time is the format check's to report.
  if (Number.isNaN(span)) return null;
  if (span <= 0) return 'scheduledEnd must be after scheduledStart';
  if (span > MAX_MAINTENANCE_WINDOW_DAYS * 86_400_000) return `a maintenance window lasts at most ${MAX_MAINTENANCE_WINDOW_DAYS} days`;
  return null;
}

const endAfterStart = (value: { scheduledStart?: string | undefined; scheduledEnd?: string | undefined }, ctx: z.RefinementCtx) => {
  const problem = value.scheduledStart && value.scheduledEnd ? windowSpanProblem(value.scheduledStart, value.scheduledEnd) : null;
  if (problem !== null) ctx.addIssue({ code: 'custom', path: ['scheduledEnd'], message: problem });
};

export const createMaintenanceSchema = z
  .object({
    title: windowFields.title,
    description: windowFields.description.optional(),
    scheduledStart: windowFields.scheduledStart,
    scheduledEnd: windowFields.scheduledEnd,
    monitorIds: windowFields.monitorIds,
  })
  .superRefine(endAfterStart);
export type CreateMaintenanceInput = z.input<typeof createMaintenanceSchema>;

/** PATCH: any create field; the merged window must still end after it starts. */
export const updateMaintenanceSchema = z
  .object({
    title: windowFields.title.optional(),
    description: windowFields.description.nullable().optional(),
    scheduledStart: windowFields.scheduledStart.optional(),
    scheduledEnd: windowFields.scheduledEnd.optional(),
    monitorIds: windowFields.monitorIds.optional(),
  })
  .superRefine(endAfterStart);
export type UpdateMaintenanceInput = z.input<typeof updateMaintenanceSchema>;
export { endAfterStart };
