/** A fake API plus a client pointed at it, with a recorded logger and an instant, recorded sleep. */
import { createClient, type ApiClient, type ClientOptions } from '../../../src/api/index.ts';
import { startFakeApi, type FakeApi } from './fake-api.ts';

export const API_KEY = 'sk_test_SECRET-4f9a2c71e0';

export interface Harness {
  api: FakeApi;
  client: ApiClient;
  logged: string[];
  sleeps: number[];
  close(): Promise<void>;
}

export async function startHarness(overrides: Partial<ClientOptions> = {}): Promise<Harness> {
  const api = await startFakeApi();
  const logged: string[] = [];
  const sleeps: number[] = [];
  const client = createClient({
    baseUrl: api.baseUrl,
    apiKey: API_KEY,
    logger: { warn: (message) => logged.push(message) },
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...overrides,
  });
  return {
    api,
    client,
    logged,
    sleeps,
    close: async () => {
      await client.close();
      await api.close();
    },
  };
}
