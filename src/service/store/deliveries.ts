import type { Sql } from '../../store/database.ts';
import { newId } from '../../store/ids.ts';
import { flag, int, intOrNull, oneOf, text, textOrNull, type Row, fromTable } from './rows.ts';

export const DELIVERY_OUTCOMES = ['delivered', 'failed', 'skipped'] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];

/** One attempt to deliver one event to one channel. Never holds a webhook URL or a message body. */
export interface DeliveryAttemptRecord {
  id: string;
  /** Shared by the attempts of the same event to the same channel. */
  deliveryId: string;
  organizationId: string;
  channelId: string;
  event: string;
  attempt: number;
  outcome: DeliveryOutcome;
  willRetry: boolean;
  /** HTTP status of a webhook answer, or the SMTP reply code of a mail server. */
  statusCode: number | null;
  error: string | null;
  attemptedAt: string;
}

export type NewDeliveryAttempt = Omit<DeliveryAttemptRecord, 'id'>;

function toAttempt(row: Row): DeliveryAttemptRecord {
  return fromTable('notification_deliveries', () => {
    return {
      id: text(row, 'id'),
      deliveryId: text(row, 'delivery_id'),
      organizationId: text(row, 'organization_id'),
      channelId: text(row, 'channel_id'),
      event: text(row, 'event'),
      attempt: int(row, 'attempt'),
      outcome: oneOf(row, 'outcome', DELIVERY_OUTCOMES),
      willRetry: flag(row, 'will_retry'),
      statusCode: intOrNull(row, 'status_code'),
      error: textOrNull(row, 'error'),
      attemptedAt: text(row, 'attempted_at'),
    };
  });
}

/** The delivery log of notification channels. */
export class DeliveryRepository {
  private readonly db: Sql;

  constructor(db: Sql) {
    this.db = db;
  }

  async record(attempt: NewDeliveryAttempt): Promise<DeliveryAttemptRecord> {
    const id = newId('att');
    await this.db.run(`INSERT INTO notification_deliveries (id, delivery_id, organization_id, channel_id, event, attempt, outcome, will_retry,
           status_code, error, attempted_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, id,
        attempt.deliveryId,
        attempt.organizationId,
        attempt.channelId,
        attempt.event,
        attempt.attempt,
        attempt.outcome,
        attempt.willRetry ? 1 : 0,
        attempt.statusCode,
        attempt.error,
        attempt.attemptedAt,);
    return { id, ...attempt };
  }

  /** Attempts for one channel, oldest first. */
  async forChannel(channelId: string): Promise<DeliveryAttemptRecord[]> {
    return (await this.db.all('SELECT * FROM notification_deliveries WHERE channel_id = ? ORDER BY attempted_at, rowid', channelId))
      .map(toAttempt);
  }
}
