/**
 * Data that changes every second, through the API as an operator would change it: an update
 * posted to an active incident. Each one gives the site new data, so its pages re-render.
 */
import { request } from 'undici';

export interface Churn {
  /** Stops posting; resolves to the number of updates posted. */
  stop(): Promise<number>;
}

export async function startChurn(apiUrl: string, apiKey: string): Promise<Churn> {
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  const list = await request(`${apiUrl}/incidents`, { headers });
  const incidents = ((await list.body.json()) as { data: { id: string; status: string }[] }).data;
  const active = incidents.find((incident) => incident.status !== 'resolved');
  if (!active) throw new Error('the demo has no active incident to update');
  return everySecond(async (count) => {
    const response = await request(`${apiUrl}/incidents/${encodeURIComponent(active.id)}`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ status: active.status, message: `Still investigating (bench update ${count + 1}).` }),
    });
    await response.body.dump();
    return response.statusCode < 300;
  });
}

/** Runs `step` about once a second until stopped; `stop` resolves to the number of steps that succeeded. */
export function everySecond(step: (succeeded: number) => Promise<boolean>): Churn {
  let succeeded = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = Date.now();
      if (await step(succeeded)) succeeded += 1;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1_000 - (Date.now() - started))));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return succeeded;
    },
  };
}
