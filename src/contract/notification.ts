import { z } from 'zod';
import { idSchema, timestampSchema, httpUrlInput } from './common.ts';

/** The spec's "chat" channel travels as the chat product's lower-case name: `slack`. */
export const CHANNEL_TYPES = ['slack', 'email'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

export const EVENT_FLAGS = [
  'onMonitorDown',
  'onMonitorRecovered',
  'onIncidentCreated',
  'onIncidentResolved',
  'onIncidentUpdated',
  'onMaintenanceScheduled',
  'onMaintenanceStarted',
  'onMaintenanceCompleted',
] as const;
export type EventFlag = (typeof EVENT_FLAGS)[number];

const flagShape = Object.fromEntries(EVENT_FLAGS.map((flag) => [flag, z.boolean()])) as Record<EventFlag, z.ZodBoolean>;

export const notificationChannelSchema = z.object({
  id: idSchema,
  name: z.string(),
  type: z.string(),
  webhookUrl: z.string().nullish(),
  recipientEmail: z.string().nullish(),
  enabled: z.boolean().optional(),
  onMonitorDown: z.boolean().optional(),
  onMonitorRecovered: z.boolean().optional(),
  onIncidentCreated: z.boolean().optional(),
  onIncidentResolved: z.boolean().optional(),
  onIncidentUpdated: z.boolean().optional(),
  onMaintenanceScheduled: z.boolean().optional(),
  onMaintenanceStarted: z.boolean().optional(),
  onMaintenanceCompleted: z.boolean().optional(),
  createdAt: timestampSchema.optional(),
  updatedAt: timestampSchema.optional(),
});
export type NotificationChannel = z.infer<typeof notificationChannelSchema>;

const emailList = z
  .string()
  .max(2000)
  .refine(
    (value) => value.split(',').every((address) => z.email().safeParse(address.trim()).success),
    'must be comma-separated e-mail addresses',
  );

const channelFields = {
  name: z.string().trim().min(1).max(100),
  type: z.enum(CHANNEL_TYPES),
  webhookUrl: httpUrlInput,
  recipientEmail: emailList,
  enabled: z.boolean(),
};

type ChannelTarget = { type?: ChannelType | undefined; webhookUrl?: string | null | undefined; recipientEmail?: string | null | undefined };

/** A slack channel needs its webhook, an email channel its recipients. */
export function addChannelTargetIssues(value: ChannelTarget, ctx: z.RefinementCtx): void {
  if (value.type === 'slack' && !value.webhookUrl) {
    ctx.addIssue({ code: 'custom', path: ['webhookUrl'], message: 'webhookUrl is required for slack channels' });
  }
  if (value.type === 'email' && !value.recipientEmail) {
    ctx.addIssue({ code: 'custom', path: ['recipientEmail'], message: 'recipientEmail is required for email channels' });
  }
}

export const createChannelSchema = z
  .object({
    name: channelFields.name,
    type: channelFields.type,
    webhookUrl: channelFields.webhookUrl.optional(),
    recipientEmail: channelFields.recipientEmail.optional(),
    enabled: channelFields.enabled.default(true),
    ...Object.fromEntries(EVENT_FLAGS.map((flag) => [flag, flagShape[flag].default(true)])) as Record<EventFlag, z.ZodDefault<z.ZodBoolean>>,
  })
  .superRefine(addChannelTargetIssues);
export type CreateChannelInput = z.input<typeof createChannelSchema>;

/** PATCH: any create field but `type`; the merged channel must still have its target. */
export const updateChannelSchema = z.object({
  name: channelFields.name.optional(),
  webhookUrl: channelFields.webhookUrl.nullable().optional(),
  recipientEmail: channelFields.recipientEmail.nullable().optional(),
  enabled: channelFields.enabled.optional(),
  ...Object.fromEntries(EVENT_FLAGS.map((flag) => [flag, flagShape[flag].optional()])) as Record<EventFlag, z.ZodOptional<z.ZodBoolean>>,
});
export type UpdateChannelInput = z.input<typeof updateChannelSchema>;
