/** The API contract: the one module the site and the service both import. */
export * from './common.ts';
export * from './monitor.ts';
export * from './status-page.ts';
export * from './incident.ts';
export * from './maintenance.ts';
export * from './organization.ts';
export * from './notification.ts';
