/**
 * The message a team channel receives, in its service's own format: Slack (Block Kit blocks),
 * Discord (an embed) or Microsoft Teams (an Adaptive Card message, as Workflows webhooks take
 * it). Built from the event's mail in the subscriber's language (its subject, its plain-text body
 * with the status in words, and its link), with the subscriber's unsubscribe link. Owner text is
 * plain text: escaped for Slack's mrkdwn, Discord's markdown links are ours only.
 */
import type { EndpointChannel } from './store.ts';

export interface ChatContent {
  title: string;
  text: string;
  link: string;
  linkLabel: string;
  unsubscribeUrl: string;
  unsubscribeLabel: string;
  /** #rrggbb */
  color: string;
}

const cut = (value: string, max: number) => (value.length > max ? `${value.slice(0, max - 1)}…` : value);
const slackEscape = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** Discord renders markdown in embeds: owner text is escaped so it cannot add links or mentions. */
const discordEscape = (value: string) => value.replace(/([\\*_~`|>[\]()#-])/g, '\\$1').replace(/@/g, '@\u200b');

export function chatMessage(channel: Exclude<EndpointChannel, 'webhook'>, content: ChatContent): object {
  if (channel === 'slack') {
    return {
      text: cut(content.title, 300),
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: cut(content.title, 150), emoji: false } },
        { type: 'section', text: { type: 'mrkdwn', text: cut(slackEscape(content.text), 2900) } },
        { type: 'context', elements: [{ type: 'mrkdwn', text: `<${content.link}|${slackEscape(content.linkLabel)}> · <${content.unsubscribeUrl}|${slackEscape(content.unsubscribeLabel)}>` }] },
      ],
    };
  }
  if (channel === 'discord') {
    return {
      allowed_mentions: { parse: [] },
      embeds: [
        {
          title: cut(content.title, 256),
          url: content.link,
          description: cut(`${discordEscape(content.text)}\n\n[${discordEscape(content.unsubscribeLabel)}](${content.unsubscribeUrl})`, 4000),
          color: Number.parseInt(content.color.slice(1), 16) || 0,
        },
      ],
    };
  }
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            { type: 'TextBlock', text: cut(content.title, 300), weight: 'Bolder', size: 'Medium', wrap: true },
            { type: 'TextBlock', text: cut(content.text, 4000), wrap: true },
          ],
          actions: [
            { type: 'Action.OpenUrl', title: content.linkLabel, url: content.link },
            { type: 'Action.OpenUrl', title: content.unsubscribeLabel, url: content.unsubscribeUrl },
          ],
        },
      },
    ],
  };
}
