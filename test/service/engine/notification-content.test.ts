import { describe, expect, it } from 'vitest';
import { emailMessage } from '../../../src/service/events/email-message.ts';
import { notificationContent } from '../../../src/service/events/notification-content.ts';
import type { ServiceEvent } from '../../../src/service/events/service-event.ts';
import { slackMessage } from '../../../src/service/events/slack-message.ts';

const down: ServiceEvent = {
  type: 'onMonitorDown',
  at: '2030-01-01T00:00:00.000Z',
  monitor: { id: 'mon_1', name: 'Payments <API> & co', type: 'http' },
  check: { id: 'chk_1', region: 'us', latency: 812, statusCode: 503, error: 'expected status code eq 200, got 503', checkedAt: '2030-01-01T00:00:00.000Z' },
  consecutiveFailures: 2,
};

describe('notification content', () => {
  it('renders a Slack incoming-webhook message with a text fallback and escaped blocks', () => {
    const message = slackMessage(notificationContent(down, 'Acme'));
    expect(message.text).toBe(':red_circle: Monitor down: Payments &lt;API&gt; &amp; co: Payments &lt;API&gt; &amp; co (http) failed 2 consecutive checks.');
    expect(message.blocks[0]).toEqual({ type: 'header', text: { type: 'plain_text', text: 'Monitor down: Payments <API> & co', emoji: true } });
    const fields = JSON.stringify(message.blocks[2]);
    for (const expected of ['*Region*\\nus', '*Latency*\\n812 ms', '*Status code*\\n503', '*Error*\\nexpected status code eq 200, got 503']) {
      expect(fields).toContain(expected);
    }
    expect(JSON.stringify(message.blocks[3])).toContain('Porchlight · Acme · 2030-01-01T00:00:00.000Z');
  });

  it('renders a plain-text e-mail with a one-line subject', () => {
    const mail = emailMessage(
      notificationContent(
        {
          type: 'onIncidentUpdated',
          at: '2030-01-01T00:00:00.000Z',
          incident: { id: 'inc_1', updateId: 'upd_1', title: 'Slow\r\nAPI', status: 'identified', severity: 'major', message: 'Rolling back.', monitors: ['API', 'Web'] },
          automatic: false,
        },
        'Acme',
      ),
    );
    expect(mail.subject).toBe('[Acme] Incident updated: Slow API');
    expect(mail.text).toContain('Rolling back.');
    expect(mail.text).toMatch(/Severity: +major/);
    expect(mail.text).toMatch(/Affected monitors: +API, Web/);
  });

  it('describes maintenance windows with their times', () => {
    const content = notificationContent(
      {
        type: 'onMaintenanceStarted',
        at: '2030-01-01T10:00:00.000Z',
        window: { id: 'mnt_1', title: 'DB upgrade', description: null, scheduledStart: '2030-01-01T10:00:00.000Z', scheduledEnd: '2030-01-01T11:00:00.000Z', monitors: [] },
        automatic: true,
      },
      'Acme',
    );
    expect(content.title).toBe('Maintenance started: DB upgrade');
    expect(content.summary).toBe('Planned maintenance from 2030-01-01T10:00:00.000Z to 2030-01-01T11:00:00.000Z.');
    expect(content.fields).toContainEqual({ label: 'Affected monitors', value: 'none' });
    expect(content.fields).toContainEqual({ label: 'Source', value: 'moved by its scheduled time' });
  });
});
