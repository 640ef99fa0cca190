/**
 * The embedded Monitoring and Status API on its own thread: its requests, SQLite writes and
 * scheduled checks never run on the thread that answers visitors.
 */
import { workerData } from 'node:worker_threads';
import { createLogger } from '../../logging/logger.ts';
import type { ServiceOptions } from '../../service/index.ts';
import { answerMemoryQueries } from './thread-memory.ts';
import { announceFailure, announceReady, onMessages, reportUnhandledRejections } from './thread-side.ts';

reportUnhandledRejections('api');
const stopMemoryAnswers = answerMemoryQueries('api');

try {
  const { privateTargetsNotice, startService } = await import('../../service/index.ts');
  const log = createLogger('api');
  // The service's lines name no URL, key or message body (see docs/api-contract.md).
  const service = await startService({ ...(workerData as ServiceOptions), log: (line) => log.info(line), logDebug: (line) => log.debug(line) });
  const egressNotice = privateTargetsNotice(service.privateTargets);
  if (egressNotice !== null) log.info({ event: 'egress', privateTargets: service.privateTargets }, egressNotice);
  onMessages(
    () => {
      stopMemoryAnswers();
      return service.close();
    },
    (message) => {
      if (message.type === 'site-url' && typeof message.url === 'string') service.setSiteUrl(message.url);
    },
  );
  announceReady({ url: service.url, demo: service.demo });
} catch (error) {
  announceFailure(error);
}
