import { z } from 'zod';
import { idSchema, timestampSchema } from './common.ts';

export const PLANS = ['free', 'pro'] as const;
export type Plan = (typeof PLANS)[number];

export const organizationSchema = z.object({
  id: idSchema,
  name: z.string(),
  slug: z.string(),
  logo: z.string().nullish(),
  createdAt: timestampSchema.optional(),
  subscriptionActive: z.boolean().optional(),
  subscriptionPlanName: z.string().nullish(),
  cancelAtPeriodEnd: z.boolean().optional(),
  plan: z.string().optional(),
});
export type Organization = z.infer<typeof organizationSchema>;
