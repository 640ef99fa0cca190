import { ColumnChanges, updateOwnedRow } from './partial-update.ts';
import type { z } from 'zod';
import {
  CHANNEL_TYPES,
  EVENT_FLAGS,
  type ChannelType,
  type EventFlag,
  type createChannelSchema,
  type updateChannelSchema,
} from '../../contract/notification.ts';
import { isPorchlightPushUrl } from '../../contract/porchlight-push.ts';
import type { Sql } from '../../store/database.ts';
import type { SqlParam } from '../../store/rows.ts';
import { newId } from '../../store/ids.ts';
import { bit, flag, int, oneOf, text, textOrNull, type Row, fromTable } from './rows.ts';

export type NotificationChannelRecord = {
  id: string;
  name: string;
  type: ChannelType;
  webhookUrl: string | null;
  recipientEmail: string | null;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
} & Record<EventFlag, boolean>;

export type NewChannel = z.output<typeof createChannelSchema>;

/** A channel as the delivery queue sees it: with its owner and whether it is a simulated demo channel. */
export interface DeliveryChannel {
  channel: NotificationChannelRecord;
  organizationId: string;
  simulated: boolean;
}
export type ChannelChanges = z.output<typeof updateChannelSchema>;

/** Event flag to its column; literal names, so they are safe to splice into SQL. */
const FLAG_COLUMNS: Record<EventFlag, string> = {
  onMonitorDown: 'on_monitor_down',
  onMonitorRecovered: 'on_monitor_recovered',
  onIncidentCreated: 'on_incident_created',
  onIncidentResolved: 'on_incident_resolved',
  onIncidentUpdated: 'on_incident_updated',
  onMaintenanceScheduled: 'on_maintenance_scheduled',
  onMaintenanceStarted: 'on_maintenance_started',
  onMaintenanceCompleted: 'on_maintenance_completed',
};

function toChannel(row: Row): NotificationChannelRecord {
  return fromTable('notification_channels', () => {
    const flags = Object.fromEntries(EVENT_FLAGS.map((name) => [name, flag(row, FLAG_COLUMNS[name])])) as Record<EventFlag, boolean>;
    return {
      id: text(row, 'id'),
      name: text(row, 'name'),
      type: oneOf(row, 'type', CHANNEL_TYPES),
      webhookUrl: textOrNull(row, 'webhook_url'),
      recipientEmail: textOrNull(row, 'recipient_email'),
      enabled: flag(row, 'enabled'),
      ...flags,
      createdAt: text(row, 'created_at'),
      updatedAt: text(row, 'updated_at'),
    };
  });
}

export class NotificationChannelRepository {
  private readonly db: Sql;

  constructor(db: Sql) {
    this.db = db;
  }

  async count(organizationId: string): Promise<number> {
    const row = await this.db.get('SELECT COUNT(*) AS n FROM notification_channels WHERE organization_id = ?', organizationId);
    return row ? int(row, 'n') : 0;
  }

  /** Creation order. */
  async list(organizationId: string, page: { limit: number; offset: number }): Promise<NotificationChannelRecord[]> {
    return (await this.db.all('SELECT * FROM notification_channels WHERE organization_id = ? ORDER BY created_at, rowid LIMIT ? OFFSET ?', organizationId, page.limit, page.offset))
      .map(toChannel);
  }

  async get(organizationId: string, id: string): Promise<NotificationChannelRecord | null> {
    const row = await this.db.get('SELECT * FROM notification_channels WHERE organization_id = ? AND id = ?', organizationId, id);
    return row ? toChannel(row) : null;
  }

  /** Enabled channels of the organization that subscribed to `event`. */
  async subscribedTo(organizationId: string, event: EventFlag): Promise<NotificationChannelRecord[]> {
    return (await this.db.all(`SELECT * FROM notification_channels WHERE organization_id = ? AND enabled = 1 AND ${FLAG_COLUMNS[event]} = 1 ORDER BY created_at, rowid`, organizationId))
      .map(toChannel);
  }

  /** The organization's enabled chat channels whose webhook is a Porchlight site's push route (see contract/porchlight-push.ts). */
  async pushChannels(organizationId: string): Promise<NotificationChannelRecord[]> {
    return (await this.db.all(`SELECT * FROM notification_channels WHERE organization_id = ? AND enabled = 1 AND type = 'slack' ORDER BY created_at, rowid`, organizationId))
      .map(toChannel)
      .filter((channel) => isPorchlightPushUrl(channel.webhookUrl));
  }

  /** The channel by id alone (deliveries run outside any request). */
  async getForDelivery(id: string): Promise<DeliveryChannel | null> {
    const row = await this.db.get('SELECT * FROM notification_channels WHERE id = ?', id);
    if (!row) return null;
    return { channel: toChannel(row), organizationId: text(row, 'organization_id'), simulated: flag(row, 'simulated') };
  }

  /** `simulated` marks demo channels with made-up targets: their deliveries are recorded as skipped. */
  async insert(organizationId: string, input: NewChannel, now: Date, options: { simulated?: boolean } = {}): Promise<NotificationChannelRecord> {
    const id = newId('chn');
    const timestamp = now.toISOString();
    const flagColumns = EVENT_FLAGS.map((name) => FLAG_COLUMNS[name]);
    await this.db.run(`INSERT INTO notification_channels (id, organization_id, name, type, webhook_url, recipient_email, enabled,
           ${flagColumns.join(', ')}, simulated, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ${flagColumns.map(() => '?').join(', ')}, ?, ?, ?)`, id,
        organizationId,
        input.name,
        input.type,
        input.webhookUrl ?? null,
        input.recipientEmail ?? null,
        bit(input.enabled),
        ...EVENT_FLAGS.map((name) => bit(input[name])),
        bit(options.simulated ?? false),
        timestamp,
        timestamp,);
    const created = await this.get(organizationId, id);
    if (!created) throw new Error('notification channel vanished inside its own transaction');
    return created;
  }

  async update(organizationId: string, id: string, changes: ChannelChanges, now: Date): Promise<NotificationChannelRecord | null> {
    const columns = new ColumnChanges();
    const set = (column: string, value: SqlParam): void => columns.set(column, value);
    if (changes.name !== undefined) set('name', changes.name);
    if (changes.webhookUrl !== undefined) set('webhook_url', changes.webhookUrl);
    if (changes.recipientEmail !== undefined) set('recipient_email', changes.recipientEmail);
    if (changes.enabled !== undefined) set('enabled', bit(changes.enabled));
    for (const name of EVENT_FLAGS) {
      const value = changes[name];
      if (value !== undefined) set(FLAG_COLUMNS[name], bit(value));
    }
    // A target chosen through the API is a real one: the channel stops being a simulated demo channel.
    if (changes.webhookUrl !== undefined || changes.recipientEmail !== undefined) set('simulated', 0);
    return (await updateOwnedRow(this.db, 'notification_channels', organizationId, id, columns, now)) ? await this.get(organizationId, id) : null;
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM notification_channels WHERE organization_id = ? AND id = ?', organizationId, id)).changes > 0;
  }
}
