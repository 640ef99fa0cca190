import { z } from 'zod';
import { idSchema, timestampSchema, monitorRefSchema, hexColorInput, httpUrlInput } from './common.ts';

/** A monitor linked to a status page, as returned inside the page. */
export const pageMonitorSchema = z.object({
  id: idSchema,
  monitorId: idSchema,
  displayName: z.string().nullish(),
  sortOrder: z.number().optional(),
  monitor: monitorRefSchema.optional(),
});
export type PageMonitor = z.infer<typeof pageMonitorSchema>;

export const statusPageSchema = z.object({
  id: idSchema,
  name: z.string(),
  slug: z.string(),
  isPublic: z.boolean().optional(),
  customDomain: z.string().nullish(),
  brandColor: z.string().nullish(),
  logoUrl: z.string().nullish(),
  headerText: z.string().nullish(),
  footerText: z.string().nullish(),
  customCss: z.string().nullish(),
  showResponseTimes: z.boolean().optional(),
  monitors: z.array(z.unknown()).optional(),
  createdAt: timestampSchema.optional(),
  updatedAt: timestampSchema.optional(),
});
/** Linked monitors are parsed one by one by the client, so one odd link does not hide the page. */
export type StatusPage = Omit<z.infer<typeof statusPageSchema>, 'monitors'> & { monitors: PageMonitor[] };

/** Lower-case letters, digits and single hyphens: safe as one URL path segment. */
export const slugInput = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lower-case letters, digits and hyphens');

/** A bare host name, no scheme, port or path; stored lower-case. */
export const domainInput = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  // Upper case is spelled out although the value is lower-cased first, so the generated OpenAPI
  // pattern accepts what the API accepts.
  .regex(/^(?=.{1,253}$)(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,63}$/, 'must be a host name such as status.example.com');

/** Extension to the spec: the set of linked monitors, replaced whole on POST/PATCH. */
export const pageMonitorLinkInput = z.object({
  monitorId: idSchema,
  displayName: z.string().trim().min(1).max(100).optional(),
  sortOrder: z.number().int().min(0).max(10_000).optional(),
});
export type PageMonitorLinkInput = z.infer<typeof pageMonitorLinkInput>;

const pageFields = {
  name: z.string().trim().min(1).max(100),
  slug: slugInput,
  isPublic: z.boolean(),
  customDomain: domainInput,
  brandColor: hexColorInput,
  logoUrl: httpUrlInput,
  headerText: z.string().max(10_000),
  footerText: z.string().max(10_000),
  customCss: z.string().max(50_000),
  showResponseTimes: z.boolean(),
  monitors: z.array(pageMonitorLinkInput).max(100),
};

export const createStatusPageSchema = z.object({
  name: pageFields.name,
  slug: pageFields.slug,
  isPublic: pageFields.isPublic.default(true),
  customDomain: pageFields.customDomain.optional(),
  brandColor: pageFields.brandColor.default('#000000'),
  logoUrl: pageFields.logoUrl.optional(),
  headerText: pageFields.headerText.optional(),
  footerText: pageFields.footerText.optional(),
  customCss: pageFields.customCss.optional(),
  showResponseTimes: pageFields.showResponseTimes.default(true),
  monitors: pageFields.monitors.default([]),
});
export type CreateStatusPageInput = z.input<typeof createStatusPageSchema>;
export type CreateStatusPage = z.output<typeof createStatusPageSchema>;

/** PATCH: any create field; `null` clears an optional one. */
export const updateStatusPageSchema = z.object({
  name: pageFields.name.optional(),
  slug: pageFields.slug.optional(),
  isPublic: pageFields.isPublic.optional(),
  customDomain: pageFields.customDomain.nullable().optional(),
  brandColor: pageFields.brandColor.optional(),
  logoUrl: pageFields.logoUrl.nullable().optional(),
  headerText: pageFields.headerText.nullable().optional(),
  footerText: pageFields.footerText.nullable().optional(),
  customCss: pageFields.customCss.nullable().optional(),
  showResponseTimes: pageFields.showResponseTimes.optional(),
  monitors: pageFields.monitors.optional(),
});
export type UpdateStatusPageInput = z.input<typeof updateStatusPageSchema>;
