import type { Envelope } from '../events/webhook-event';
import { mailOf, webhookBody } from './payloads';

const integrity: Envelope = {
  id: 'evt_1',
  type: 'integrity.changed',
  created_at: '2026-05-04T15:00:00.000Z',
  data: { alert_id: 'a1', store_id: 's1', source: 'https://cdn.example/w.js?a=1&b=<2>', url: 'https://pss.example/alerts/a1' },
};

describe('webhook bodies', () => {
  it('sends the envelope itself as json', () => {
    expect(JSON.parse(webhookBody('json', integrity))).toEqual(integrity);
  });

  it('sends Slack a fixed English summary with a link, its markup characters escaped', () => {
    expect(JSON.parse(webhookBody('slack', integrity))).toEqual({
      text:
        '*Script content changed: https://cdn.example/w.js?a=1&amp;b=&lt;2&gt;*\n' +
        'An authorized script no longer has its authorized content. Store s1.\n' +
        '<https://pss.example/alerts/a1|Open in Payment Page Script Security>',
    });
  });

  it('sends Teams an Adaptive Card with the summary and a button to open it', () => {
    const card = JSON.parse(webhookBody('teams', integrity)).attachments[0];
    expect(card.contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(card.content.body.map((block: { text: string }) => block.text)).toEqual([
      'Script content changed: https://cdn.example/w.js?a=1&b=<2>',
      'An authorized script no longer has its authorized content. Store s1.',
    ]);
    expect(card.content.actions).toEqual([{ type: 'Action.OpenUrl', title: 'Open in Payment Page Script Security', url: 'https://pss.example/alerts/a1' }]);
  });

  it.each([
    [{ type: 'alert.created', data: { severity: 'critical', type: 'MALICIOUS_SCRIPT', source: 'https://evil.example/x.js', page: '/checkout', store_id: 's1' } }, 'New critical alert: Malicious script', 'https://evil.example/x.js on /checkout. Store s1.'],
    [{ type: 'alert.created', data: { severity: 'medium', type: 'SDK_SILENT', source: null, page: null } }, 'New medium alert: SDK silent', ''],
    [{ type: 'header.changed', data: { page: '/checkout', source: 'x-frame-options', details: { header: 'x-frame-options', change_type: 'removed' } } }, 'Security header removed: x-frame-options', 'x-frame-options on /checkout.'],
    [{ type: 'sdk.silent', data: { details: { last_event_at: '2026-05-03T15:00:00.000Z' } } }, 'SDK silent for 24 hours', 'No SDK events since 2026-05-03T15:00:00.000Z.'],
    [{ type: 'script.detected', data: { src: 'https://cdn.widgets.io/w.js', page_url: 'https://loja.example/checkout' } }, 'New script awaits review: https://cdn.widgets.io/w.js', 'Seen on https://loja.example/checkout.'],
    [{ type: 'report.ready', data: { kind: 'weekly', period_start: 'A', period_end: 'B' } }, 'PCI report ready (weekly)', 'Period A to B.'],
  ])('writes a fixed English summary of %j', (event, title, text) => {
    const envelope = { id: 'evt_1', created_at: '2026-05-04T15:00:00.000Z', ...event, data: { ...event.data, url: 'https://pss.example/x' } } as Envelope;
    expect(mailOf(envelope)).toEqual({
      subject: `Payment Page Script Security: ${title}`,
      text: `${title}\n\n${text}\n\nOpen it: https://pss.example/x\n`,
    });
  });
});
