import {
  assertStoreWritable,
  COMMANDS,
  EVIDENCE_CHAIN_QUERIES,
  REPORT_CSV_TABLES,
  type EvidenceChainVerification,
  type GenerateReportReply,
  type GenerateReportRequest,
  type ReportCsvTable,
  type ReportPdfReply,
  type ReportPdfRequest,
  type SetReportScheduleRequest,
  type StoreDocument,
} from '@pss/contracts';
import { findSnapshot, listStoreSnapshots, storeSchedule } from '@pss/dashboard-reads';
import type { FileStore } from '@pss/files';
import { DomainError } from '@pss/kernel';
import { csvChunks, CSV_CONTENT_TYPE, csvFileName, organizationReportsRefusal, snapshotData } from '@pss/report-files';
import { ownStore } from '@pss/store-reads';
import { allows, REQUIRES_MEMBER, requiresStoreOwner } from '../access/roles';
import type { DashboardAnswer, DashboardRequest, DashboardRoute, SessionControl } from '../http/dashboard-route';
import { errorPage } from '../pages/layout';
import { reportsOf, reportsPage, type ReportsView } from '../pages/reports';
import { defaultReportForm, reportRequestOf, scheduleOf, type ReportFormValues } from '../reports/report-form';
import { storesOf } from './organization-stores';
import { actorOf, type RouteDeps } from './route-deps';

/** As the gateway waits: a year of a large store's report takes about a second, its PDF several. */
const GENERATE_TIMEOUT_MS = 30_000;
const PDF_TIMEOUT_MS = 60_000;

/** The page's status for the service's refusal, as the API answers the same codes (DESIGN.md section 4). */
const REFUSAL_STATUS: Record<string, number> = { validation_error: 400, plan_limit: 403, forbidden: 403, not_found: 404 };

/**
 * PCI reports (issue 32). Every member reads a store's snapshots, its chain's check and its schedule, and
 * downloads the files; its owner (or the organization's) generates and schedules, through the reports service's
 * own commands with the person as actor. The files are the API's: the PDF by the same signed link, each CSV
 * written from the file store's data by the same lib.
 */
export function reportsRoutes({ bus, readStore }: RouteDeps, { files }: { files: FileStore }): DashboardRoute[] {
  const orgOf = (request: DashboardRequest): string => request.signedIn!.organization.id;
  const actor = (request: DashboardRequest) => ({ actor: actorOf(request.signedIn!.member) });

  async function view(request: DashboardRequest, storeId: string | undefined, changes: Partial<ReportsView> = {}): Promise<ReportsView | undefined> {
    const stores = await storesOf(readStore, orgOf(request));
    const store = storeId ? stores.find((candidate) => candidate._id === storeId) : stores[0];
    if (storeId && !store) return undefined;
    const base: ReportsView = { stores, store, acts: false, form: defaultReportForm(request.now, store?.timezone ?? 'UTC', request.locale), errors: {}, snapshots: [], nextCursor: null, paged: false, schedule: null };
    if (!store) return { ...base, ...changes };
    const cursor = request.query.cursor || undefined;
    const [page, chain, schedule] = await Promise.all([
      listStoreSnapshots(readStore, orgOf(request), store._id, { cursor }),
      bus.request<EvidenceChainVerification>(EVIDENCE_CHAIN_QUERIES.chainVerify, { orgId: orgOf(request), storeId: store._id }),
      storeSchedule(readStore, orgOf(request), store._id),
    ]);
    const acts = allows(request.signedIn!.member.role, requiresStoreOwner(store._id));
    return { ...base, acts, snapshots: page.snapshots, nextCursor: page.next_cursor, paged: cursor !== undefined, chain, schedule, ...changes };
  }
  const notFound = (request: DashboardRequest): DashboardAnswer => errorPage(request, 404, request.t('error.not-found'));

  /** A POST's store: the organization's, which the person owns (403 otherwise), with the plan allowing reports. */
  async function actingOn(request: DashboardRequest): Promise<{ store: StoreDocument } | { refused: DashboardAnswer }> {
    const storeId = request.form.store_id ?? '';
    const store = await ownStore(readStore, orgOf(request), storeId).catch(() => undefined);
    if (!store) return { refused: notFound(request) };
    if (!allows(request.signedIn!.member.role, requiresStoreOwner(store._id))) return { refused: errorPage(request, 403, request.t('error.forbidden')) };
    return { store };
  }

  /** The service's refusal (the plan, a suspended store, a forged choice) shown on the store's page in its words. */
  async function refusedPage(request: DashboardRequest, storeId: string, error: unknown): Promise<DashboardAnswer> {
    if (!(error instanceof DomainError) || error.code === 'service_unavailable') throw error;
    const shown = await view(request, storeId, { refusal: error.message });
    return { status: REFUSAL_STATUS[error.code] ?? 409, page: reportsPage(request, shown!) };
  }

  /**
   * A POST on one of the organization's stores by its owner, when the plan includes reports (the API's order of
   * refusals): the action's answer, or back to the store's reports.
   */
  const storeAction =
    (act: (request: DashboardRequest, store: StoreDocument, session: SessionControl) => Promise<DashboardAnswer | undefined>): DashboardRoute['handle'] =>
    async (request, session) => {
      const acting = await actingOn(request);
      if ('refused' in acting) return acting.refused;
      try {
        const refusal = await organizationReportsRefusal(readStore, orgOf(request));
        if (refusal) throw refusal;
        return (await act(request, acting.store, session)) ?? { redirect: reportsOf(acting.store._id) };
      } catch (error) {
        return refusedPage(request, acting.store._id, error);
      }
    };

  return [
    {
      method: 'GET',
      path: '/reports',
      access: REQUIRES_MEMBER,
      async handle(request) {
        const shown = await view(request, request.query.store_id || undefined);
        return shown ? { page: reportsPage(request, shown) } : notFound(request);
      },
    },
    {
      method: 'POST',
      path: '/reports',
      access: REQUIRES_MEMBER,
      handle: storeAction(async (request, store, session) => {
        const form: ReportFormValues = { period_start: request.form.period_start ?? '', period_end: request.form.period_end ?? '', locale: request.form.locale ?? '' };
        const parsed = reportRequestOf(form, store.timezone, request.now);
        if ('errors' in parsed) return { status: 400, page: reportsPage(request, (await view(request, store._id, { form, errors: parsed.errors }))!) };
        const command: GenerateReportRequest = { orgId: orgOf(request), storeId: store._id, ...parsed.request, reuse: false };
        const { snapshot } = await bus.request<GenerateReportReply>(COMMANDS.reportGenerate, command, { ...actor(request), timeoutMs: GENERATE_TIMEOUT_MS });
        session.flash('reports.generated', { sequence: snapshot.sequence });
        return undefined;
      }),
    },
    {
      method: 'POST',
      path: '/reports/schedule',
      access: REQUIRES_MEMBER,
      handle: storeAction(async (request, store, session) => {
        const schedule = scheduleOf(request.form);
        if (!schedule) throw new DomainError('validation_error', 'cadence must be weekly or monthly, and locale pt-BR or en');
        assertStoreWritable(store);
        const command: SetReportScheduleRequest = { orgId: orgOf(request), storeId: store._id, ...schedule };
        await bus.request(COMMANDS.scheduleSet, command, actor(request));
        session.flash('reports.schedule.saved');
        return undefined;
      }),
    },
    {
      method: 'GET',
      path: '/reports/snapshots/:id/pdf',
      access: REQUIRES_MEMBER,
      async handle(request) {
        const snapshot = await findSnapshot(readStore, orgOf(request), request.params.id);
        if (!snapshot || snapshot._expired_at) return notFound(request);
        // The API's own answer: the reports service renders the PDF into the file store and signs a link to it.
        const command: ReportPdfRequest = { orgId: orgOf(request), snapshotId: snapshot._id };
        const { location } = await bus.request<ReportPdfReply>(COMMANDS.reportPdf, command, { timeoutMs: PDF_TIMEOUT_MS });
        return { redirect: location };
      },
    },
    {
      method: 'GET',
      path: '/reports/snapshots/:id/csv/:table',
      access: REQUIRES_MEMBER,
      async handle(request) {
        const snapshot = await findSnapshot(readStore, orgOf(request), request.params.id);
        const table = request.params.table as ReportCsvTable;
        if (!snapshot || snapshot._expired_at || !REPORT_CSV_TABLES.includes(table) || !snapshot.csv_tables.includes(table)) return notFound(request);
        const data = await snapshotData(files, snapshot);
        return {
          download: { filename: csvFileName(snapshot._domain, table, snapshot.period_start, snapshot.period_end), contentType: CSV_CONTENT_TYPE, chunks: csvChunks(data, table, snapshot.locale) },
        };
      },
    },
  ];
}
