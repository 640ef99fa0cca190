import type { CheckTarget } from '../checks/run-check.ts';
import type { MonitorRecord } from '../store/monitors.ts';

/** What to check for a stored monitor. */
export function checkTargetOf(monitor: MonitorRecord): CheckTarget {
  return {
    type: monitor.type,
    url: monitor.url,
    host: monitor.host,
    port: monitor.port,
    method: monitor.method,
    headers: monitor.headers,
    body: monitor.body,
    timeoutSeconds: monitor.timeout,
    rules: monitor.rules,
  };
}
