/**
 * Reads and validates the launcher's configuration, answers with the plain result and ends
 * (config-thread.ts). zod and the message catalogs the language settings are checked against
 * load here, on a thread that exits, never on the serving thread.
 */
import { loadLauncherConfig } from '../config.ts';
import { announceFailure, announceReady, onMessages } from './thread-side.ts';

try {
  onMessages(async () => undefined);
  announceReady({ config: loadLauncherConfig(process.env) });
} catch (error) {
  announceFailure(error);
}
