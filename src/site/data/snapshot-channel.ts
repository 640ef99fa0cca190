/**
 * The site's snapshots, told to the subscriptions thread: each freshly loaded one (compared with
 * the one before to find events) and a restored one (only to know the pages). The uptime
 * histories stay behind: mails do not need them.
 */
import type { Snapshot } from './snapshot.ts';
import { announcer, listenOn } from './thread-channel.ts';

export const SNAPSHOT_CHANNEL = 'porchlight:snapshots';

export interface SnapshotMessage {
  kind: 'loaded' | 'restored';
  snapshot: Omit<Snapshot, 'histories'>;
}

const announce = announcer<SnapshotMessage>(SNAPSHOT_CHANNEL);

export function announceSnapshot(kind: SnapshotMessage['kind'], snapshot: Snapshot): void {
  const { histories: _histories, ...rest } = snapshot;
  announce({ kind, snapshot: rest });
}

function isMessage(data: unknown): data is SnapshotMessage {
  return typeof data === 'object' && data !== null && 'kind' in data && 'snapshot' in data;
}

export function onSnapshot(listener: (kind: SnapshotMessage['kind'], snapshot: Snapshot) => void): () => void {
  return listenOn(SNAPSHOT_CHANNEL, (data) => {
    if (isMessage(data)) listener(data.kind, { ...data.snapshot, histories: new Map() });
  });
}
