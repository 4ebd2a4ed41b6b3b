import type { ChangeEvents, ReportLocale } from './report-data';

/** Each figure of a summary: its label, and one line saying what it counts. */
export type Figures<Key extends string> = Record<Key, { label: string; counts: string }>;

/**
 * Every word the PDF and the CSV header rows show, per locale: the report is evidence an assessor reads, so
 * nothing is left in the other language. Values the data carries as codes (statuses, parties, alert types…)
 * are translated through `value()`; a code without a translation is shown as it is, never hidden.
 */
export interface ReportLabels {
  title: string;
  subtitle: string;
  cover: {
    store: string;
    domain: string;
    period: string;
    periodUtc: string;
    generatedAt: string;
    generatedBy: string;
    snapshotId: string;
    kind: string;
    schemaVersion: string;
    paymentPages: string;
    none: string;
    sha256: string;
    sha256Explained: string;
    timezoneNote: (timezone: string) => string;
  };
  page: (page: number, pages: number) => string;
  sections: {
    req643: string;
    req643Intro: string;
    req1161: string;
    req1161Intro: string;
    scripts: string;
    headers: string;
    /** The headers of paths no payment page matches: a heading and what they are. */
    undeclaredHeaders: string;
    undeclaredHeadersIntro: string;
    alerts: string;
    periodicChecks: string;
    periodicChecksIntro: string;
    dataAccess: string;
    dataAccessIntro: string;
    policies: string;
    empty: string;
  };
  summary643: Figures<'total' | 'authorized' | 'blocked' | 'needs_review' | 'expired'>;
  /** In the order the PDF lists them: the events, then each kind of them, then alerts and pages. */
  summary1161: Figures<'events' | keyof ChangeEvents | 'alerts_total' | 'alerts_open' | 'pages_observed'>;
  /** The summary tables' header row. */
  figureColumns: { figure: string; value: string; counts: string };
  /** One line per column of the weekly checks, saying what it counts. */
  periodicChecksCounts: Record<'sdkSessions' | 'sdkBatches' | 'pagesMonitored' | 'headerChecks' | 'monitoring', string>;
  /** What an alert's occurrences and first/last seen count. */
  alertsCounts: string;
  pagesObserved: { heading: string; intro: (listed: number, total: number) => string; batches: string };
  connections: { heading: string; intro: string };
  weeksWithoutMonitoring: (count: number) => string;
  columns: {
    destination: string;
    via: string;
    initiators: string;
    script: string;
    party: string;
    category: string;
    status: string;
    integrity: string;
    justification: string;
    authorizedBy: string;
    authorizedAt: string;
    method: string;
    expiresAt: string;
    hashes: string;
    currentHash: string;
    authorizedHash: string;
    sriHash: string;
    integrityAttr: string;
    firstSeen: string;
    /** First and last seen, as one range. */
    seen: string;
    lastSeen: string;
    hashChanges: string;
    page: string;
    /** Whether a page path is one of the store's payment pages. */
    declaredPage: string;
    header: string;
    baseline: string;
    baselineAt: string;
    lastValue: string;
    changes: string;
    changesCount: string;
    type: string;
    severity: string;
    source: string;
    occurrences: string;
    resolvedAt: string;
    resolvedBy: string;
    note: string;
    week: string;
    sdkSessions: string;
    sdkBatches: string;
    pagesMonitored: string;
    headerChecks: string;
    monitoring: string;
    fieldClass: string;
    accesses: string;
    name: string;
    scope: string;
    version: string;
    mode: string;
    action: string;
    active: string;
    priority: string;
    decisionsInPeriod: string;
    id: string;
    decisions: string;
    inline: string;
    vendor: string;
    policy: string;
    policyVersion: string;
  };
  yes: string;
  no: string;
  absent: string;
  organizationLevel: string;
  storeLevel: string;
  /** After a cell cut to fit a page. */
  truncated: string;
  noMonitoring: string;
  monitored: string;
  /** A script reading sensitive fields without an authorization (it may be under review or blocked). */
  notAuthorized: string;
  values: Record<string, string>;
  /** The SDK's sensitive field classes (apart: `expiry` is also an authorization method). */
  fieldClasses: Record<string, string>;
}

const PT_BR: ReportLabels = {
  title: 'Relatório de conformidade PCI DSS v4.0',
  subtitle: 'Requisitos 6.4.3 (scripts da página de pagamento) e 11.6.1 (detecção de alterações e adulteração)',
  cover: {
    store: 'Loja',
    domain: 'Domínio',
    period: 'Período (horário da loja)',
    periodUtc: 'Período (UTC)',
    generatedAt: 'Gerado em',
    generatedBy: 'Gerado por',
    snapshotId: 'Identificador do snapshot',
    kind: 'Tipo',
    schemaVersion: 'Versão do esquema',
    paymentPages: 'Páginas de pagamento',
    none: 'nenhuma',
    sha256: 'SHA-256 dos dados (JSON canônico)',
    sha256Explained: 'Para verificar: obtenha o snapshot em JSON e calcule o SHA-256 do JSON canônico do campo "data" (docs/reports.md); o resultado deve ser igual ao valor acima.',
    timezoneNote: (timezone) => `Datas no fuso horário da loja (${timezone}), com o horário UTC abaixo.`,
  },
  page: (page, pages) => `Página ${page} de ${pages}`,
  sections: {
    req643: 'Requisito 6.4.3 — Inventário e autorização de scripts',
    req643Intro: 'Cada script visto nas páginas de pagamento até o fim do período, com sua justificativa por escrito, quem o autorizou e quando, a validade da autorização e os hashes que garantem sua integridade.',
    req1161: 'Requisito 11.6.1 — Detecção de alterações e adulteração',
    req1161Intro: 'Alterações de scripts e de cabeçalhos de segurança HTTP detectadas no período, e os alertas abertos para elas.',
    scripts: 'Scripts',
    headers: 'Cabeçalhos de segurança',
    undeclaredHeaders: 'Cabeçalhos de caminhos não declarados',
    undeclaredHeadersIntro:
      'Caminhos que nenhuma página de pagamento da loja cobre, relatados pelo SDK (a chave do SDK é pública: qualquer cliente pode relatá-los). Não são evidência das páginas de pagamento.',
    alerts: 'Alertas',
    periodicChecks: 'Verificações periódicas (semanais)',
    periodicChecksIntro: 'Uma linha por semana (segunda-feira 00:00 UTC): o monitoramento visto. Semanas sem monitoramento estão destacadas.',
    dataAccess: 'Acesso a dados sensíveis',
    dataAccessIntro: 'Quais scripts leram quais classes de campo e quantas vezes; nenhum valor é coletado.',
    policies: 'Políticas',
    empty: 'Nada a relatar neste período.',
  },
  summary643: {
    total: { label: 'Scripts inventariados', counts: 'Scripts distintos vistos nas páginas da loja até o fim do período.' },
    authorized: { label: 'Autorizados', counts: 'Desses, autorizados ou confiáveis no fim do período.' },
    blocked: { label: 'Bloqueados', counts: 'Desses, bloqueados no fim do período.' },
    needs_review: { label: 'Aguardando revisão', counts: 'Desses, aguardando uma decisão (em revisão, suspeitos ou maliciosos).' },
    expired: { label: 'Autorizações expiradas', counts: 'Scripts que voltaram à revisão porque a autorização expirou (já contados em "aguardando revisão").' },
  },
  summary1161: {
    events: { label: 'Alterações detectadas', counts: 'Cada detecção no período conta uma vez (por tipo nas linhas abaixo). Um alerta agrupa as detecções repetidas da mesma coisa, por isso este número costuma ser muito maior que o de alertas.' },
    new_scripts: { label: 'Scripts novos', counts: 'Scripts vistos pela primeira vez no período.' },
    hash_changes: { label: 'Conteúdo de script alterado', counts: 'Novos hashes de scripts já conhecidos.' },
    header_changes: { label: 'Cabeçalhos alterados', counts: 'Cabeçalhos de segurança adicionados, removidos ou alterados, um por cabeçalho.' },
    csp_violations: { label: 'Violações de CSP', counts: 'Relatórios de violação da Content-Security-Policy recebidos.' },
    unexpected_iframes: { label: 'Iframes inesperados', counts: 'Iframes de origens que a loja não espera.' },
    recipient_mismatches: { label: 'Recebedor divergente', counts: 'Recebedores de pagamento diferentes dos fixados pela loja.' },
    alerts_total: { label: 'Alertas no período', counts: 'Alertas abertos no período (cada um agrupa as ocorrências repetidas).' },
    alerts_open: { label: 'Alertas ainda abertos', counts: 'Desses, abertos no fim do período.' },
    pages_observed: { label: 'Páginas observadas', counts: 'Caminhos de página distintos de onde o SDK enviou lotes no período (horas inteiras).' },
  },
  figureColumns: { figure: 'Indicador', value: 'Valor', counts: 'O que conta' },
  periodicChecksCounts: {
    sdkSessions: 'Sessões / endereços do SDK: as sessões e os endereços de cliente distintos por trás dos lotes, contados por janela de envio e somados (nenhum endereço é guardado).',
    sdkBatches: 'Lotes do SDK: lotes que pareciam visitas de página (uma sessão com observações de scripts); a chave do SDK é pública, por isso nada mais conta.',
    pagesMonitored: 'Páginas monitoradas: caminhos de página distintos com fatos do SDK ou verificações de cabeçalhos.',
    headerChecks: 'Verificações de cabeçalhos: linhas de base e alterações de cabeçalhos de segurança registradas.',
    monitoring: 'Monitoramento: "SEM MONITORAMENTO" quando nenhuma visita de página foi relatada na semana. As semanas começam na criação da loja.',
  },
  alertsCounts: 'Ocorrências: quantas vezes o alerta foi visto até o fim do período, a primeira inclusive, como GET /alerts/{id} mostra; visto pela primeira e pela última vez: a primeira e a mais recente dessas ocorrências.',
  pagesObserved: {
    heading: 'Páginas observadas pelo SDK',
    intro: (listed, total) => `Caminhos de página (sem parâmetros) de onde o SDK enviou lotes no período, contados por horas inteiras: ${total} no total, os ${listed} mais ativos listados.`,
    batches: 'Lotes do SDK',
  },
  connections: {
    heading: 'Conexões das páginas de pagamento',
    intro: 'As origens para onde as páginas de pagamento enviaram requisições até o fim do período (só a origem é relatada, nunca caminho, parâmetros ou corpo), como chegaram a elas e os scripts vistos na pilha dessas requisições.',
  },
  weeksWithoutMonitoring: (count) => (count === 0 ? 'Todas as semanas tiveram monitoramento.' : `${count} semana(s) sem monitoramento.`),
  columns: {
    destination: 'Destino',
    via: 'Meio',
    initiators: 'Scripts iniciadores',
    script: 'Script',
    party: 'Origem',
    category: 'Categoria',
    status: 'Situação',
    integrity: 'Integridade',
    justification: 'Justificativa',
    authorizedBy: 'Autorizado por',
    authorizedAt: 'Autorizado em',
    method: 'Método',
    expiresAt: 'Validade',
    hashes: 'Hashes',
    currentHash: 'Hash atual',
    authorizedHash: 'Hash autorizado',
    sriHash: 'Hash SRI',
    integrityAttr: 'Atributo integrity',
    firstSeen: 'Visto pela primeira vez',
    seen: 'Visto',
    lastSeen: 'Visto pela última vez',
    hashChanges: 'Alterações de hash no período',
    page: 'Página',
    declaredPage: 'Página de pagamento declarada',
    header: 'Cabeçalho',
    baseline: 'Linha de base',
    baselineAt: 'Linha de base em',
    lastValue: 'Último valor',
    changes: 'Alterações no período',
    changesCount: 'Número de alterações',
    type: 'Tipo',
    severity: 'Gravidade',
    source: 'Origem do alerta',
    occurrences: 'Ocorrências',
    resolvedAt: 'Resolvido em',
    resolvedBy: 'Resolvido por',
    note: 'Observação',
    week: 'Semana',
    sdkSessions: 'Sessões / endereços do SDK',
    sdkBatches: 'Lotes do SDK',
    pagesMonitored: 'Páginas monitoradas',
    headerChecks: 'Verificações de cabeçalhos',
    monitoring: 'Monitoramento',
    fieldClass: 'Classe de campo',
    accesses: 'Acessos',
    name: 'Nome',
    scope: 'Escopo',
    version: 'Versão',
    mode: 'Modo',
    action: 'Ação',
    active: 'Ativa',
    priority: 'Prioridade',
    decisionsInPeriod: 'Decisões no período',
    id: 'Identificador',
    decisions: 'Decisões (data, ação, método, quem: justificativa)',
    inline: 'Inline',
    vendor: 'Fornecedor',
    policy: 'Política',
    policyVersion: 'Versão da política',
  },
  yes: 'sim',
  no: 'não',
  absent: '(ausente)',
  organizationLevel: 'organização',
  storeLevel: 'loja',
  truncated: '[texto cortado: a íntegra está no JSON e no CSV]',
  noMonitoring: 'SEM MONITORAMENTO',
  monitored: 'monitorada',
  notAuthorized: 'não autorizado',
  values: {
    first_party: 'primeira parte',
    known_third: 'terceiro conhecido',
    unknown: 'desconhecido',
    trusted: 'confiável',
    needs_review: 'aguardando revisão',
    suspicious: 'suspeito',
    malicious: 'malicioso',
    authorized: 'autorizado',
    blocked: 'bloqueado',
    match: 'confere',
    mismatch: 'divergente',
    pending: 'pendente',
    monitored: 'monitorado',
    manual: 'manual',
    auto: 'automático',
    policy: 'política',
    ai_assisted: 'assistido por IA',
    import: 'importação',
    api: 'API',
    expiry: 'expiração',
    integrity: 'integridade',
    system: 'sistema',
    open: 'aberto',
    resolved: 'resolvido',
    critical: 'crítica',
    high: 'alta',
    medium: 'média',
    low: 'baixa',
    info: 'informativa',
    added: 'adicionado',
    removed: 'removido',
    changed: 'alterado',
    authorize: 'autorizar',
    block: 'bloquear',
    recommend: 'recomendar',
    weekly: 'semanal',
    monthly: 'mensal',
    on_demand: 'sob demanda',
    SCRIPT_INTEGRITY_MISMATCH: 'integridade de script divergente',
    HEADER_CHANGED: 'cabeçalho alterado',
    CSP_VIOLATION: 'violação de CSP',
    MALICIOUS_SCRIPT: 'script malicioso',
    SENSITIVE_FIELD_ACCESS: 'acesso a campo sensível',
    UNEXPECTED_IFRAME: 'iframe inesperado',
    RECIPIENT_MISMATCH: 'recebedor divergente',
    SDK_SILENT: 'SDK silencioso',
    NEW_CONNECTION: 'nova conexão',
  },
  fieldClasses: { card_number: 'número do cartão', cvv: 'CVV', expiry: 'validade do cartão', document: 'documento', other: 'outro' },
};

const EN: ReportLabels = {
  title: 'PCI DSS v4.0 compliance report',
  subtitle: 'Requirements 6.4.3 (payment page scripts) and 11.6.1 (change and tamper detection)',
  cover: {
    store: 'Store',
    domain: 'Domain',
    period: 'Period (store time)',
    periodUtc: 'Period (UTC)',
    generatedAt: 'Generated at',
    generatedBy: 'Generated by',
    snapshotId: 'Snapshot id',
    kind: 'Kind',
    schemaVersion: 'Schema version',
    paymentPages: 'Payment pages',
    none: 'none',
    sha256: 'SHA-256 of the data (canonical JSON)',
    sha256Explained: 'To verify: fetch the snapshot as JSON and compute the SHA-256 of the canonical JSON of its "data" field (docs/reports.md); it must equal the value above.',
    timezoneNote: (timezone) => `Dates in the store's time zone (${timezone}), with the UTC time below.`,
  },
  page: (page, pages) => `Page ${page} of ${pages}`,
  sections: {
    req643: 'Requirement 6.4.3 — Script inventory and authorization',
    req643Intro: 'Every script seen on the payment pages up to the end of the period, with its written justification, who authorized it and when, when the authorization expires, and the hashes that assure its integrity.',
    req1161: 'Requirement 11.6.1 — Change and tamper detection',
    req1161Intro: 'Changes to scripts and to HTTP security headers detected in the period, and the alerts raised for them.',
    scripts: 'Scripts',
    headers: 'Security headers',
    undeclaredHeaders: 'Headers of undeclared paths',
    undeclaredHeadersIntro:
      "Paths none of the store's payment pages covers, reported by the SDK (the SDK key is public: any client may report them). They are not evidence of the payment pages.",
    alerts: 'Alerts',
    periodicChecks: 'Periodic checks (weekly)',
    periodicChecksIntro: 'One row per week (Monday 00:00 UTC): the monitoring seen. Weeks without monitoring are highlighted.',
    dataAccess: 'Sensitive data access',
    dataAccessIntro: 'Which scripts read which class of field, and how often; no value is ever collected.',
    policies: 'Policies',
    empty: 'Nothing to report in this period.',
  },
  summary643: {
    total: { label: 'Scripts inventoried', counts: 'Distinct scripts seen on the store\'s pages up to the end of the period.' },
    authorized: { label: 'Authorized', counts: 'Of those, authorized or trusted at the end of the period.' },
    blocked: { label: 'Blocked', counts: 'Of those, blocked at the end of the period.' },
    needs_review: { label: 'Awaiting review', counts: 'Of those, awaiting a decision (needs review, suspicious or malicious).' },
    expired: { label: 'Expired authorizations', counts: 'Scripts sent back to review because their authorization expired (also counted as awaiting review).' },
  },
  summary1161: {
    events: { label: 'Changes detected', counts: 'Each detection in the period counts once (by kind in the lines below). An alert groups repeated detections of the same thing, so this is usually far above the alerts.' },
    new_scripts: { label: 'New scripts', counts: 'Scripts seen for the first time in the period.' },
    hash_changes: { label: 'Script content changed', counts: 'New hashes of scripts already known.' },
    header_changes: { label: 'Header changes', counts: 'Security headers added, removed or changed, one per header.' },
    csp_violations: { label: 'CSP violations', counts: 'Content-Security-Policy violation reports received.' },
    unexpected_iframes: { label: 'Unexpected iframes', counts: 'Iframes from origins the store does not expect.' },
    recipient_mismatches: { label: 'Recipient mismatches', counts: 'Payment recipients other than those the store pins.' },
    alerts_total: { label: 'Alerts in the period', counts: 'Alerts opened in the period (each groups its repeated occurrences).' },
    alerts_open: { label: 'Alerts still open', counts: 'Of those, open at the end of the period.' },
    pages_observed: { label: 'Pages observed', counts: 'Distinct page paths the SDK sent batches from in the period (whole hours).' },
  },
  figureColumns: { figure: 'Figure', value: 'Value', counts: 'What it counts' },
  periodicChecksCounts: {
    sdkSessions: 'SDK sessions / addresses: the distinct sessions and client addresses behind the batches, counted per flush window and summed (no address is kept).',
    sdkBatches: 'SDK batches: batches that looked like page views (a session with script observations); the SDK key is public, so nothing else counts.',
    pagesMonitored: 'Pages monitored: distinct page paths with SDK facts or header checks.',
    headerChecks: 'Header checks: security-header baselines and changes recorded.',
    monitoring: 'Monitoring: "NO MONITORING" when no page view was reported that week. Weeks start at the store\'s creation.',
  },
  alertsCounts: 'Occurrences: how many times the alert was seen up to the end of the period, the first included, as GET /alerts/{id} shows; first and last seen: the first and the latest of those occurrences.',
  pagesObserved: {
    heading: 'Pages observed by the SDK',
    intro: (listed, total) => `Page paths (without parameters) the SDK sent batches from in the period, counted by whole hours: ${total} in all, the ${listed} busiest listed.`,
    batches: 'SDK batches',
  },
  connections: {
    heading: 'Connections of the payment pages',
    intro: 'The origins the payment pages sent requests to up to the end of the period (only the origin is ever reported, never a path, a query or a body), how they were reached and the scripts seen on the stack of those requests.',
  },
  weeksWithoutMonitoring: (count) => (count === 0 ? 'Every week was monitored.' : `${count} week(s) without monitoring.`),
  columns: {
    destination: 'Destination',
    via: 'Via',
    initiators: 'Initiating scripts',
    script: 'Script',
    party: 'Party',
    category: 'Category',
    status: 'Status',
    integrity: 'Integrity',
    justification: 'Justification',
    authorizedBy: 'Authorized by',
    authorizedAt: 'Authorized at',
    method: 'Method',
    expiresAt: 'Expires',
    hashes: 'Hashes',
    currentHash: 'Current hash',
    authorizedHash: 'Authorized hash',
    sriHash: 'SRI hash',
    integrityAttr: 'integrity attribute',
    firstSeen: 'First seen',
    seen: 'Seen',
    lastSeen: 'Last seen',
    hashChanges: 'Hash changes in period',
    page: 'Page',
    declaredPage: 'Declared payment page',
    header: 'Header',
    baseline: 'Baseline',
    baselineAt: 'Baseline at',
    lastValue: 'Last value',
    changes: 'Changes in period',
    changesCount: 'Number of changes',
    type: 'Type',
    severity: 'Severity',
    source: 'Alert source',
    occurrences: 'Occurrences',
    resolvedAt: 'Resolved at',
    resolvedBy: 'Resolved by',
    note: 'Note',
    week: 'Week',
    sdkSessions: 'SDK sessions / addresses',
    sdkBatches: 'SDK batches',
    pagesMonitored: 'Pages monitored',
    headerChecks: 'Header checks',
    monitoring: 'Monitoring',
    fieldClass: 'Field class',
    accesses: 'Accesses',
    name: 'Name',
    scope: 'Scope',
    version: 'Version',
    mode: 'Mode',
    action: 'Action',
    active: 'Active',
    priority: 'Priority',
    decisionsInPeriod: 'Decisions in period',
    id: 'Id',
    decisions: 'Decisions (when, action, method, who: justification)',
    inline: 'Inline',
    vendor: 'Vendor',
    policy: 'Policy',
    policyVersion: 'Policy version',
  },
  yes: 'yes',
  no: 'no',
  absent: '(absent)',
  organizationLevel: 'organization',
  storeLevel: 'store',
  truncated: '[cut: the full text is in the JSON and the CSV]',
  noMonitoring: 'NO MONITORING',
  monitored: 'monitored',
  notAuthorized: 'not authorized',
  values: {
    first_party: 'first party',
    known_third: 'known third party',
    unknown: 'unknown',
    needs_review: 'needs review',
    ai_assisted: 'AI-assisted',
    on_demand: 'on demand',
    SCRIPT_INTEGRITY_MISMATCH: 'script integrity mismatch',
    HEADER_CHANGED: 'header changed',
    CSP_VIOLATION: 'CSP violation',
    MALICIOUS_SCRIPT: 'malicious script',
    SENSITIVE_FIELD_ACCESS: 'sensitive field access',
    UNEXPECTED_IFRAME: 'unexpected iframe',
    RECIPIENT_MISMATCH: 'recipient mismatch',
    SDK_SILENT: 'SDK silent',
    NEW_CONNECTION: 'new connection',
  },
  fieldClasses: { card_number: 'card number', cvv: 'CVV', expiry: 'card expiry', document: 'document', other: 'other' },
};

export const REPORT_LABELS: Record<ReportLocale, ReportLabels> = { 'pt-BR': PT_BR, en: EN };

export const labelsFor = (locale: ReportLocale): ReportLabels => REPORT_LABELS[locale] ?? PT_BR;

/** A code the data carries (status, party, type…) in words of the locale; unknown codes as they are. */
export const valueLabel = (words: Record<string, string>, code: string | null | undefined): string =>
  code === null || code === undefined ? '' : (words[code] ?? code);
