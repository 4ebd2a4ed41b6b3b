import type { ChannelResource } from '@pss/contracts';
import type { DeliveryRow } from '@pss/dashboard-reads';
import { newSession } from '../access/session';
import type { DashboardRequest } from '../http/dashboard-route';
import { translator, type Locale } from '../i18n/catalogue';
import { deliveriesPage } from './deliveries';

const now = new Date('2026-11-27T12:00:00.000Z');
const request = (locale: Locale): DashboardRequest => ({ locale, t: translator(locale), now, url: '/dashboard/channels/c1/deliveries', params: {}, query: {}, form: {}, ip: '127.0.0.1', session: newSession(now) });
const channel = { id: 'c1', name: 'Ops' } as ChannelResource;
const failed = (delivery_id: string, error: string): DeliveryRow => ({
  delivery_id,
  event_type: 'test',
  event_id: `e-${delivery_id}`,
  time: now.toISOString(),
  attempts: 1,
  outcome: 'failed',
  status_code: null,
  duration_ms: 12,
  next_retry_at: null,
  error,
});

describe('the deliveries page', () => {
  it("says a known failure in the reader's language, then the transport's own words in a code element", () => {
    const page = deliveriesPage(request('pt-BR'), channel, [
      failed('d1', 'connect ECONNREFUSED 127.0.0.1:1025'),
      failed('d2', "EACCES: permission denied, mkdir '/data/<outbox>'"),
    ]).text;
    expect(page).toContain('Falhou<br><span class="hint">o servidor de e-mail recusou a conexão: ele está fora do ar ou o endereço configurado no serviço está errado. <code>connect ECONNREFUSED 127.0.0.1:1025</code></span>');
    // Unknown: the transport's words alone, escaped like any text.
    expect(page).toContain('<span class="hint"><code>EACCES: permission denied, mkdir &#39;/data/&lt;outbox&gt;&#39;</code></span>');
  });

  it("leads a webhook's history back to the webhook, its known outcomes said before the notifier's word, and a test to check it", () => {
    const rows = [failed('d1', 'connection_refused'), failed('d2', 'connect ECONNREFUSED 127.0.0.1:1025'), failed('d3', 'http_503: busy')];
    const page = deliveriesPage(request('en'), { ...channel, type: 'webhook' }, rows).text;
    expect(page).toContain('<span class="hint">the webhook server refused or closed the connection. <code>connection_refused</code></span>');
    expect(page).toContain('<span class="hint">the webhook server answered with HTTP status 503. <code>http_503: busy</code></span>');
    // A mail transport's words are no webhook outcome: shown alone.
    expect(page).toContain('<span class="hint"><code>connect ECONNREFUSED 127.0.0.1:1025</code></span>');
    expect(deliveriesPage(request('pt-BR'), { ...channel, type: 'webhook' }, [failed('d4', 'timeout')]).text).toContain('o servidor do webhook não respondeu a tempo. <code>timeout</code>');
    expect(page).toContain('To check the webhook, send a test.');
    expect(page).toContain('<a href="/dashboard/webhooks/c1">Back to the channel</a>');
  });
});
