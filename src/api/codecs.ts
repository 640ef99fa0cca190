/** One codec per resource, built from the contract's response schemas. */
import {
  checkSchema,
  incidentSchema,
  maintenanceSchema,
  monitorSchema,
  notificationChannelSchema,
  organizationSchema,
  pageMonitorSchema,
  statusPageSchema,
  type PageMonitor,
  type StatusPage,
} from '../contract/index.ts';
import { schemaCodec, type Codec } from './codec.ts';

export const monitorCodec = schemaCodec('monitor', monitorSchema);
export const checkCodec = schemaCodec('check', checkSchema);
export const incidentCodec = schemaCodec('incident', incidentSchema);
export const maintenanceCodec = schemaCodec('maintenanceWindow', maintenanceSchema);
export const organizationCodec = schemaCodec('organization', organizationSchema);
export const notificationChannelCodec = schemaCodec('notificationChannel', notificationChannelSchema);

const pageMonitorCodec = schemaCodec('statusPageMonitor', pageMonitorSchema);
const statusPageShellCodec = schemaCodec('statusPage', statusPageSchema);

/** A status page whose monitor links are decoded one by one: a bad link is dropped, the page kept. */
export const statusPageCodec: Codec<StatusPage> = {
  resource: 'statusPage',
  decode(value, path, onInvalidItem) {
    const shell = statusPageShellCodec.decode(value, path, onInvalidItem);
    if (!shell.ok) return shell;
    const monitors: PageMonitor[] = [];
    (shell.value.monitors ?? []).forEach((link, index) => {
      const decoded = pageMonitorCodec.decode(link, [...path, 'monitors', index], onInvalidItem);
      if (decoded.ok) monitors.push(decoded.value);
      else onInvalidItem(pageMonitorCodec.resource, index, decoded.summary);
    });
    return { ok: true, value: { ...shell.value, monitors } };
  },
};
