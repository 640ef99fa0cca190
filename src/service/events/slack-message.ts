import type { NotificationContent } from './notification-content.ts';

/** Slack mrkdwn treats &, < and > as control characters; everything user-written is escaped. */
export function escapeMrkdwn(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Slack section text is limited to 3000 characters. */
const clip = (value: string, max: number): string => (value.length > max ? `${value.slice(0, max - 1)}…` : value);

export interface SlackMessage {
  text: string;
  blocks: unknown[];
}

/**
 * An incoming-webhook message: `text` is the fallback shown in notifications and by clients without
 * block support; `blocks` lay out the same content.
 */
export function slackMessage(content: NotificationContent): SlackMessage {
  const title = escapeMrkdwn(content.title);
  return {
    text: clip(`${content.emoji} ${title}: ${escapeMrkdwn(content.summary)}`, 3000),
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: clip(content.title, 150), emoji: true } },
      { type: 'section', text: { type: 'mrkdwn', text: clip(`${content.emoji} ${escapeMrkdwn(content.summary)}`, 3000) } },
      {
        type: 'section',
        fields: content.fields.slice(0, 10).map((field) => ({
          type: 'mrkdwn',
          text: clip(`*${escapeMrkdwn(field.label)}*\n${escapeMrkdwn(field.value)}`, 2000),
        })),
      },
      {
        type: 'context',
        elements: [{ type: 'mrkdwn', text: escapeMrkdwn(`Porchlight · ${content.organization} · ${content.at}`) }],
      },
    ],
  };
}
