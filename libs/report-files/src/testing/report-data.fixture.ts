import { REPORT_SCHEMA_VERSION, type ReportAlert, type ReportData, type ReportScript } from '../report-data';

/**
 * ReportData for tests of whatever consumes it (renderers, the API, the report builder's expectations): a small
 * report with the text an assessor's tools must survive (accents, quotes, commas, line breaks, formula-like
 * script URLs), and a large one of any size for paging and benchmarks. Deterministic: same arguments, same data.
 */
export const FIXTURE_SNAPSHOT_ID = '0193a5b0-7c1e-7d2a-9f00-5e1f2a3b4c5d';
export const FIXTURE_DOMAIN = 'loja-acentuação.com.br';

const hash = (seed: number): string => `sha384-${Buffer.from(String(seed).padStart(48, '7')).toString('base64')}`;
const at = (day: number, hour = 12): string => new Date(Date.UTC(2026, 10, day, hour, 30)).toISOString();

export function reportDataFixture(overrides: Partial<ReportData> = {}): ReportData {
  return {
    meta: {
      report_id: FIXTURE_SNAPSHOT_ID,
      store: { id: '0193a5b0-0000-7000-8000-000000000001', name: 'Loja São João — Pagamentos', org_id: '0193a5b0-0000-7000-8000-0000000000aa', timezone: 'America/Sao_Paulo', status: 'active', created_at: '2026-11-02T14:00:00.000Z' },
      domain: FIXTURE_DOMAIN,
      schema_version: REPORT_SCHEMA_VERSION,
      generated_at: '2026-11-23T12:00:00.000Z',
      locale: 'pt-BR',
    },
    scope: {
      period_start: '2026-11-16T12:00:00.000Z',
      period_end: '2026-11-23T12:00:00.000Z',
      payment_pages: ['/checkout', '/checkout/pagamento/*'],
      requirements: ['6.4.3', '11.6.1'],
    },
    summary_643: { total: 4, authorized: 2, blocked: 1, needs_review: 1, expired: 0 },
    summary_1161: {
      events: 5,
      events_by_kind: { new_scripts: 1, hash_changes: 1, header_changes: 2, csp_violations: 1, unexpected_iframes: 0, recipient_mismatches: 0 },
      alerts_total: 2,
      alerts_open: 1,
      pages_observed: 3,
    },
    scripts: [
      script(1, {
        src: 'https://js.stripe.com/v3/',
        party: 'known_third',
        category: 'payment',
        vendor_id: 'stripe',
        justification: 'Processamento de cartão: exigência do adquirente, revisão trimestral',
        authorized_by: 'api:pss_live_0123456789abcdef0123456789abcdef',
        decisions: [{ action: 'authorize', method: 'manual', by: 'api:pss_live_0123456789abcdef0123456789abcdef', justification: 'Processamento de cartão', at: at(17) }],
      }),
      script(2, {
        src: `https://${FIXTURE_DOMAIN}/static/checkout.js?v=1,2&q="quoted"`,
        party: 'first_party',
        category: 'first_party',
        justification: 'Código próprio da página de pagamento;\nrevisado pela equipe, "versão 2", com vírgulas',
        authorization_method: 'policy',
        policy_id: '0193a5b0-0000-7000-8000-0000000000f1',
        policy_version: 3,
      }),
      script(3, {
        src: '=HYPERLINK("https://evil.example/x","clique")',
        party: 'unknown',
        status: 'blocked',
        justification: '+1 exfiltração suspeita; @SUM(A1) -2',
        authorized_hash: null,
        expires_at: null,
        decisions: [{ action: 'block', method: 'manual', by: 'api:pss_live_0123456789abcdef0123456789abcdef', justification: '+1 exfiltração suspeita', at: at(18) }],
      }),
      script(4, { src: `inline:${hash(4)}`, inline: true, party: 'first_party', status: 'needs_review', integrity_status: 'mismatch', justification: null, authorization_method: null, authorized_by: null, authorized_at: null, authorized_hash: null, expires_at: null, hash_changes_in_period: 2, decisions: [] }),
    ],
    headers: [
      { page: '/checkout', name: 'content-security-policy', baseline: "script-src 'self' https://js.stripe.com", last_value: "script-src 'self' https://js.stripe.com https://cdn.example.com", baseline_at: at(2), changes: [{ change_type: 'changed', old_value: "script-src 'self' https://js.stripe.com", new_value: "script-src 'self' https://js.stripe.com https://cdn.example.com", at: at(19) }] },
      { page: '/checkout', name: 'strict-transport-security', baseline: 'max-age=31536000; includeSubDomains', last_value: 'max-age=31536000; includeSubDomains', baseline_at: at(2), changes: [] },
      { page: '/checkout/pagamento', name: 'x-frame-options', baseline: null, last_value: 'DENY', baseline_at: null, changes: [{ change_type: 'added', old_value: null, new_value: 'DENY', at: at(20) }] },
    ],
    alerts: [
      alert(1, { type: 'SCRIPT_INTEGRITY_MISMATCH', severity: 'high', status: 'open', source: `https://${FIXTURE_DOMAIN}/static/checkout.js`, note: null }),
      alert(2, { type: 'HEADER_CHANGED', severity: 'medium', status: 'resolved', source: null, page: '/checkout', resolved_at: at(21), resolved_by_label: 'api:pss_live_0123456789abcdef0123456789abcdef', note: '-Alteração aprovada pela equipe de segurança, ticket "SEC-42"' }),
    ],
    policies: [
      { id: '0193a5b0-0000-7000-8000-0000000000f1', name: 'Primeira parte: autorizar', store_id: null, version: 3, mode: 'auto', action: 'authorize', active: true, priority: 10, is_default: true, decisions_in_period: 1 },
    ],
    periodic_checks: [
      { week_start: '2026-11-16T00:00:00.000Z', week_end: '2026-11-23T00:00:00.000Z', sdk_sessions: 1234, sdk_client_addresses: 987, sdk_batches: 5678, pages_monitored: 2, header_checks: 310, no_monitoring: false },
      { week_start: '2026-11-23T00:00:00.000Z', week_end: '2026-11-30T00:00:00.000Z', sdk_sessions: 0, sdk_client_addresses: 0, sdk_batches: 0, pages_monitored: 0, header_checks: 0, no_monitoring: true },
    ],
    pages_observed: [
      { page: '/checkout/pagamento', batches: 4210 },
      { page: '/carrinho', batches: 1302 },
      { page: '/checkout/confirmação', batches: 166 },
    ],
    connections: [
      { origin: 'https://api.stripe.com', via: ['fetch', 'beacon'], pages: ['/checkout/pagamento', '/checkout/confirmação'], initiators: ['https://js.stripe.com/v3/'], first_seen_at: at(16, 13), last_seen_at: at(23, 11) },
      { origin: 'https://coleta.evil.example', via: ['image'], pages: ['/checkout/pagamento'], initiators: [], first_seen_at: at(18), last_seen_at: at(18, 14) },
    ],
    data_access: [
      { script_id: scriptId(1), src: 'https://js.stripe.com/v3/', field_class: 'card_number', accesses: 812, script_authorized: true, first_at: at(16, 13), last_at: at(23, 11) },
      { script_id: scriptId(3), src: '=HYPERLINK("https://evil.example/x","clique")', field_class: 'cvv', accesses: 3, script_authorized: false, first_at: at(18), last_at: at(18, 14) },
    ],
    ...overrides,
  };
}

/** A report the size of a big store: `scripts` scripts, `alerts` alerts and one periodic-check row per week of a year. */
export function largeReportData(size: { scripts: number; alerts: number } = { scripts: 5000, alerts: 10_000 }): ReportData {
  const base = reportDataFixture();
  const scripts = Array.from({ length: size.scripts }, (_, i) =>
    script(i + 10, {
      src: `https://cdn-${i % 97}.vendor-${i % 13}.example.com/assets/${'long-path-segment/'.repeat(i % 4)}bundle.${i}.min.js?build=${i * 7919}`,
      party: ['first_party', 'known_third', 'unknown'][i % 3],
      status: ['authorized', 'authorized', 'blocked', 'needs_review'][i % 4],
      justification: i % 5 === 0 ? null : `Justificativa nº ${i}: necessário para a finalização da compra (análise de risco, conversão)`,
      hash_changes_in_period: i % 7 === 0 ? 1 : 0,
    }),
  );
  const alerts = Array.from({ length: size.alerts }, (_, i) =>
    alert(i + 10, {
      type: ['SCRIPT_INTEGRITY_MISMATCH', 'HEADER_CHANGED', 'CSP_VIOLATION', 'SENSITIVE_FIELD_ACCESS'][i % 4],
      severity: ['low', 'medium', 'high', 'critical'][i % 4],
      status: i % 3 === 0 ? 'open' : 'resolved',
      source: `https://cdn-${i % 97}.vendor-${i % 13}.example.com/assets/bundle.${i}.min.js`,
      resolved_at: i % 3 === 0 ? null : at(1 + (i % 28), 15),
      resolved_by_label: i % 3 === 0 ? null : 'api:pss_live_0123456789abcdef0123456789abcdef',
      note: i % 6 === 1 ? `Revisado: falso positivo nº ${i}` : null,
    }),
  );
  const weeks = Array.from({ length: 53 }, (_, i) => {
    const start = new Date(Date.UTC(2025, 10, 24) + i * 7 * 86_400_000);
    const quiet = i % 11 === 5;
    return {
      week_start: start.toISOString(),
      week_end: new Date(start.getTime() + 7 * 86_400_000).toISOString(),
      sdk_sessions: quiet ? 0 : 1000 + i,
      sdk_client_addresses: quiet ? 0 : 700 + i,
      sdk_batches: quiet ? 0 : 4000 + i,
      pages_monitored: quiet ? 0 : 2,
      header_checks: quiet ? 0 : 300 + i,
      no_monitoring: quiet,
    };
  });
  return {
    ...base,
    scope: { ...base.scope, period_start: '2025-11-22T12:00:00.000Z', period_end: '2026-11-23T12:00:00.000Z' },
    summary_643: {
      total: scripts.length,
      authorized: scripts.filter((s) => s.status === 'authorized').length,
      blocked: scripts.filter((s) => s.status === 'blocked').length,
      needs_review: scripts.filter((s) => s.status === 'needs_review').length,
      expired: 0,
    },
    summary_1161: { events: alerts.length + 700, alerts_total: alerts.length, alerts_open: alerts.filter((a) => a.status === 'open').length },
    scripts,
    alerts,
    periodic_checks: weeks,
  };
}

function scriptId(n: number): string {
  return `0193a5b0-0000-7000-9000-${String(n).padStart(12, '0')}`;
}

function script(n: number, overrides: Partial<ReportScript>): ReportScript {
  return {
    id: scriptId(n),
    src: `https://cdn.example.com/s${n}.js`,
    inline: false,
    party: 'known_third',
    category: null,
    vendor_id: null,
    status: 'authorized',
    integrity_status: 'match',
    current_hash: hash(n),
    authorized_hash: hash(n),
    sri_hash: n % 2 === 0 ? hash(n) : null,
    integrity_attr: n % 2 === 0,
    justification: 'Necessário para o checkout',
    authorization_method: 'manual',
    authorized_by: 'api:pss_live_0123456789abcdef0123456789abcdef',
    authorized_at: at(17),
    expires_at: '2027-02-17T12:30:00.000Z',
    policy_id: null,
    policy_version: null,
    first_seen_at: at(2),
    last_seen_at: at(23, 11),
    hash_changes_in_period: 0,
    decisions: [],
    ...overrides,
  };
}

function alert(n: number, overrides: Partial<ReportAlert>): ReportAlert {
  return {
    id: `0193a5b0-0000-7000-a000-${String(n).padStart(12, '0')}`,
    type: 'CSP_VIOLATION',
    severity: 'medium',
    status: 'open',
    source: null,
    page: '/checkout',
    occurrences: 1 + (n % 9),
    first_seen_at: at(1 + (n % 22)),
    last_seen_at: at(1 + (n % 22), 18),
    resolved_at: null,
    resolved_by_label: null,
    note: null,
    ...overrides,
  };
}
