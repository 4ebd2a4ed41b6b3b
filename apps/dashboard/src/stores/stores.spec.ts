import { validationError, conflict } from '@pss/kernel';
import { translator } from '../i18n/catalogue';
import { installCauses, sdkReportPattern } from './install-check';
import { installCheckView } from './install-check-view';
import { createStoreInput, fieldRefusals, sdkSettingsInput, sdkSettingsValues } from './store-form';
import { byNeed, type NeedsAction } from './store-summary';

const now = new Date('2026-05-10T12:00:00.000Z');
const silentSdk = { installed: false, paused: false, last_event_at: null, silent: false, events_total: 0 };

describe('the new store form', () => {
  it('sends the domain, the environment, pages one per line with their methods and recipients with labels that keep their spaces', () => {
    const input = createStoreInput({
      domain: ' shop.example ',
      environment: 'staging',
      name: '',
      payment_pages: '/checkout/* pix, card\n\n  /pay  pix',
      recipients: 'pix 12345678000199 Loja Centro\nboleto 0341',
    });
    expect(input).toEqual({
      domain: 'shop.example',
      environment: 'staging',
      payment_pages: [
        { url_pattern: '/checkout/*', payment_methods: ['pix', 'card'] },
        { url_pattern: '/pay', payment_methods: ['pix'] },
      ],
      recipients: [{ method: 'pix', key: '12345678000199', label: 'Loja Centro' }, { method: 'boleto', key: '0341' }],
    });
  });

  it('leaves an unknown environment to the command default (production) rather than inventing one', () => {
    expect(createStoreInput({ domain: 'a.example', environment: 'moon', name: 'A', payment_pages: '', recipients: '' })).toMatchObject({ environment: undefined, name: 'A' });
  });
});

describe('the SDK settings form', () => {
  it('sends numbers as typed, a blank or a word as NaN for the command to refuse', () => {
    const values = sdkSettingsValues({ mode: 'block', calibration_seconds: '45', overlay_check_interval_ms: 'soon', installation_order_policy: 'warn', release_channel: 'stable' });
    expect(sdkSettingsInput(values)).toEqual({ mode: 'block', calibration_seconds: 45, overlay_check_interval_ms: Number.NaN, installation_order_policy: 'warn', release_channel: 'stable' });
    expect(sdkSettingsInput({ ...values, calibration_seconds: ' ' }).calibration_seconds).toBeNaN();
  });

  it("places the command's refusals on their fields in the person's language, an entry's on its list, unknown ones in the command's words", () => {
    const refused = validationError([
      { field: 'calibration_seconds', message: 'calibration_seconds must be a whole number from 10 to 120' },
      { field: 'payment_pages.1.url_pattern', message: 'url_pattern must be a path (glob) starting with /, e.g. /checkout/*' },
      { field: 'payment_pages.2.url_pattern', message: 'url_pattern /a is listed twice in this request' },
      { message: 'something about no field' },
    ]);
    expect(fieldRefusals(translator('pt-BR'), refused)).toEqual({
      calibration_seconds: ['deve ser um número inteiro de 10 a 120.'],
      payment_pages: ['cada padrão de URL deve ser um caminho começando com /, por exemplo /checkout/*.', 'url_pattern /a is listed twice in this request'],
      form: ['something about no field'],
    });
    expect(fieldRefusals(translator('en'), refused)!.calibration_seconds).toEqual(['must be a whole number from 10 to 120.']);
    expect(fieldRefusals(translator('en'), conflict('Store is suspended; it can be read but not changed'))).toBeUndefined();
  });
});

describe('the install check', () => {
  const evidence = { sdk: silentSdk, sdkBlockedReports: 0, rotatedKeysValidUntil: [] as string[] };

  it('before any page view: what the service cannot tell, to check', () => {
    expect(installCauses(evidence, now)).toEqual([
      { cause: 'snippet-not-first', seen: false },
      { cause: 'csp-unreported', seen: false },
      { cause: 'key-mistyped', seen: false },
    ]);
  });

  it('says first what the service saw: developer mode, CSP reports naming the SDK, a rotated or expired key', () => {
    const seen = installCauses({ sdk: { ...silentSdk, paused: true }, sdkBlockedReports: 2, rotatedKeysValidUntil: ['2026-05-10T11:00:00.000Z'] }, now);
    expect(seen.slice(0, 3)).toEqual([
      { cause: 'developer-mode', seen: true },
      { cause: 'csp-blocks-sdk', seen: true, reports: 2 },
      { cause: 'key-rotated', seen: true, validUntil: '2026-05-10T11:00:00.000Z', expired: true },
    ]);
    expect(seen.map((cause) => cause.cause)).not.toContain('csp-unreported');
  });

  it('once a page view came, only developer mode still matters', () => {
    const installed = { ...silentSdk, installed: true, last_event_at: now.toISOString(), events_total: 4 };
    expect(installCauses({ ...evidence, sdk: installed, sdkBlockedReports: 1 }, now)).toEqual([]);
    expect(installCauses({ ...evidence, sdk: { ...installed, paused: true } }, now)).toEqual([{ cause: 'developer-mode', seen: true }]);
  });

  it("knows the SDK's URL in a CSP report with or without its query, or as its origin; nothing else of the host", () => {
    const pattern = new RegExp(sdkReportPattern('https://pss.example:8443/sdk/v1/sdk.js'));
    for (const uri of ['https://pss.example:8443/sdk/v1/sdk.js', 'https://pss.example:8443/sdk/v1/sdk.js?key=pk_live_1', 'https://pss.example:8443', 'https://pss.example:8443/']) expect(uri).toMatch(pattern);
    for (const uri of ['https://pss.example:8443/other.js', 'https://pss.example/sdk/v1/sdk.js', 'https://pss.example:8443.evil/sdk/v1/sdk.js']) expect(uri).not.toMatch(pattern);
  });

  it("is shown as text in the reader's language and the store's time zone", () => {
    const reader = { t: translator('en'), locale: 'en' as const };
    const arrived = { ...silentSdk, installed: true, last_event_at: '2026-05-10T11:59:00.000Z', events_total: 3 };
    const view = installCheckView(reader, { ...evidence, sdk: arrived }, [{ src: 'https://cdn.example/a.js', status: 'needs_review' }], { timeZone: 'America/Sao_Paulo', now });
    expect(view).toEqual({
      installed: true,
      status: 'The SDK is reporting: last page view at May 10, 2026, 8:59 AM GMT-3 (3 events in all).',
      scripts: [{ src: 'https://cdn.example/a.js', status: 'needs review' }],
      causes: [],
    });
    const waiting = installCheckView({ t: translator('pt-BR'), locale: 'pt-BR' }, { ...evidence, rotatedKeysValidUntil: ['2026-05-11T12:00:00.000Z'] }, [], { timeZone: 'America/Sao_Paulo', now });
    expect(waiting.status).toBe('Aguardando a primeira visualização de página…');
    expect(waiting.causes[0]).toEqual({ text: expect.stringContaining('páginas com a chave anterior funcionam até 11 de mai. de 2026'), seen: true });
  });
});

describe('what needs action first', () => {
  const item = (name: string, decisions: Partial<NeedsAction['decisions']>, alerts: Partial<NeedsAction['alerts']>, silent = false) => ({
    name,
    decisions: { malicious: 0, suspicious: 0, needs_review: 0, ...decisions },
    alerts: { critical: 0, high: 0, medium: 0, low: 0, info: 0, ...alerts },
    sdk: { ...silentSdk, silent },
  });

  it('orders by the most urgent thing: critical alerts, malicious scripts, high alerts, suspicious scripts, a silent SDK, reviews, then the rest; calm ones by name', () => {
    const sorted = byNeed(
      [
        item('calm b', {}, {}),
        item('reviews', { needs_review: 40 }, { low: 3 }),
        item('silent', {}, {}, true),
        item('high', {}, { high: 1 }),
        item('malicious', { malicious: 1 }, {}),
        item('critical', {}, { critical: 1 }),
        item('calm a', {}, {}),
        item('suspicious', { suspicious: 2 }, {}),
        item('more reviews', { needs_review: 41 }, {}),
      ],
      (entry) => entry.name,
    );
    expect(sorted.map((entry) => entry.name)).toEqual(['critical', 'malicious', 'high', 'suspicious', 'silent', 'more reviews', 'reviews', 'calm a', 'calm b']);
  });
});
