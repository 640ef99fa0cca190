import { z } from 'zod';
import { idSchema, timestampSchema, affectedMonitorSchema, monitorIdsInput } from './common.ts';

export const INCIDENT_STATUSES = ['investigating', 'identified', 'monitoring', 'resolved'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];
export const INCIDENT_SEVERITIES = ['minor', 'major', 'critical'] as const;
export type IncidentSeverity = (typeof INCIDENT_SEVERITIES)[number];

export const incidentUpdateSchema = z.object({
  id: idSchema,
  status: z.string(),
  message: z.string(),
  createdAt: timestampSchema,
});
export type IncidentUpdate = z.infer<typeof incidentUpdateSchema>;

export const incidentSchema = z.object({
  id: idSchema,
  title: z.string(),
  status: z.string(),
  severity: z.string(),
  startedAt: timestampSchema,
  resolvedAt: timestampSchema.nullish(),
  updates: z.array(incidentUpdateSchema).default([]),
  monitors: z.array(affectedMonitorSchema).default([]),
  createdAt: timestampSchema.optional(),
  updatedAt: timestampSchema.optional(),
});
export type Incident = z.infer<typeof incidentSchema>;

export const createIncidentSchema = z.object({
  monitorIds: monitorIdsInput,
  title: z.string().trim().min(1).max(200),
  message: z.string().trim().min(1).max(10_000),
  status: z.enum(INCIDENT_STATUSES).default('investigating'),
  severity: z.enum(INCIDENT_SEVERITIES).default('minor'),
});
export type CreateIncidentInput = z.input<typeof createIncidentSchema>;

export const updateIncidentSchema = z.object({
  status: z.enum(INCIDENT_STATUSES),
  message: z.string().trim().min(1).max(10_000),
});
export type UpdateIncidentInput = z.input<typeof updateIncidentSchema>;
