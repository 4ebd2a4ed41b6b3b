import type { ChannelFormat } from '@pss/contracts';
import { summaryOf, type Summary } from '../events/event-summary';
import type { Envelope } from '../events/webhook-event';

/** The raw body of a webhook attempt: the envelope itself (`json`), or a Slack or Teams message about it. */
export function webhookBody(format: ChannelFormat, envelope: Envelope): string {
  switch (format) {
    case 'json':
      return JSON.stringify(envelope);
    case 'slack':
      return JSON.stringify(slackMessage(summaryOf(envelope)));
    case 'teams':
      return JSON.stringify(teamsMessage(summaryOf(envelope)));
  }
}

export interface Mail {
  subject: string;
  text: string;
}

export function mailOf(envelope: Envelope): Mail {
  const { title, text, url } = summaryOf(envelope);
  return { subject: `Payment Page Script Security: ${title}`, text: `${title}\n\n${text}\n\nOpen it: ${url}\n` };
}

/** Slack's incoming-webhook message; `&`, `<` and `>` are control characters of its markup. */
const slackMessage = ({ title, text, url }: Summary) => ({
  text: `*${slackEscape(title)}*\n${slackEscape(text)}\n<${url}|Open in Payment Page Script Security>`,
});

const slackEscape = (value: string): string => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A Teams workflow webhook message: one Adaptive Card. */
const teamsMessage = ({ title, text, url }: Summary) => ({
  type: 'message',
  attachments: [
    {
      contentType: 'application/vnd.microsoft.card.adaptive',
      content: {
        $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
        type: 'AdaptiveCard',
        version: '1.4',
        body: [
          { type: 'TextBlock', text: title, weight: 'Bolder', wrap: true },
          { type: 'TextBlock', text, wrap: true },
        ],
        actions: [{ type: 'Action.OpenUrl', title: 'Open in Payment Page Script Security', url }],
      },
    },
  ],
});
