import type { NotificationContent } from './notification-content.ts';

export interface EmailMessage {
  subject: string;
  text: string;
}

/** A plain-text e-mail: subject line and a body with the same fields as the chat message. */
export function emailMessage(content: NotificationContent): EmailMessage {
  const width = Math.max(...content.fields.map((field) => field.label.length));
  const lines = [
    content.title,
    '',
    content.summary,
    '',
    ...content.fields.map((field) => `${`${field.label}:`.padEnd(width + 2)}${field.value}`),
    '',
    `-- Porchlight monitoring for ${content.organization}, ${content.at}`,
  ];
  // Header injection is impossible through nodemailer, but a subject must stay on one line.
  return { subject: `[${content.organization}] ${content.title}`.replace(/[\r\n]+/g, ' '), text: `${lines.join('\n')}\n` };
}
