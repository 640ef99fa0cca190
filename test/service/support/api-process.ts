/**
 * One embedded API process for the outbox SIGKILL test: the service on the store given in
 * PORCHLIGHT_TEST_STORE (a StoreLocation as JSON), delivery on with the outbox lease of
 * PORCHLIGHT_TEST_LEASE_MS and one send at a time, no scheduler. Prints `ready <url>` once serving.
 */
import { startService } from '../../../src/service/index.ts';
import type { StoreLocation } from '../../../src/store/location.ts';

const place = JSON.parse(process.env.PORCHLIGHT_TEST_STORE ?? '{}') as StoreLocation;
const leaseMs = Number(process.env.PORCHLIGHT_TEST_LEASE_MS ?? '1500');
const service = await startService({
  databasePath: place.dialect === 'sqlite' ? place.path : ':memory:',
  ...(place.dialect === 'postgres' && { databaseUrl: place.url, ...(place.schema !== undefined && { databaseSchema: place.schema }) }),
  scheduler: false,
  allowPrivateTargets: true,
  log: (line) => process.stderr.write(`${line}\n`),
  notifications: { deliver: true, retryDelaysMs: [], webhookTimeoutMs: 30_000, outbox: { leaseMs, pollMs: 100, concurrency: 1 } },
});
process.stdout.write(`ready ${service.url}\n`);
