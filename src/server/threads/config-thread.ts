/**
 * The launcher's configuration, validated on a short-lived thread of its own (config-worker.ts).
 * Once loaded, a module stays in its thread's heap for good: zod and the message catalogs cost
 * the serving thread about 10 MiB of V8 heap (measured), for a check made once at start. The
 * serving thread keeps only the plain, structured-cloned result.
 */
import { ConfigError } from '../../site/config-error.ts';
import type { LauncherConfig } from '../config.ts';
import { startPorchlightThread } from './porchlight-threads.ts';
import { ThreadStartError } from './worker-thread.ts';

/** Throws ConfigError with the same one line as `loadLauncherConfig` would. */
export async function loadLauncherConfigOnThread(): Promise<LauncherConfig> {
  try {
    const thread = await startPorchlightThread<{ config: LauncherConfig }>('config', null);
    await thread.close();
    return thread.ready.config;
  } catch (error) {
    if (error instanceof ThreadStartError && error.causeName === 'ConfigError') throw new ConfigError(error.message);
    throw error;
  }
}
