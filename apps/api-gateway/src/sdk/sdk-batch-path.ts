/**
 * Where a step of the path runs: one of the gateway's three Fastify hooks (the real entry points of an SDK route,
 * not the controller's decorators), the controller's handler, a bus command to inventory, or after the answer.
 */
export type StepRuns =
  | 'onRequest hook'
  | 'onRequest hook and body parser'
  | 'preHandler hook'
  | 'handler'
  | 'inventory, on COMMANDS.sdkIngest'
  | 'behind the answer';

export interface BatchStep {
  readonly step: string;
  /** The file, from the repository's root, and the name defined there that does the step. */
  readonly where: string;
  readonly symbol: string;
  /** The file that installs or calls it: where the step before hands the batch on. */
  readonly calledFrom: string;
  readonly runs: StepRuns;
  /** What the step answers when it stops the batch, or leaves out of it. */
  readonly refuses: string;
}

/**
 * One SDK batch (`POST /sdk/v1/events`; the CSP report route `/sdk/v1/csp` takes the same steps from admission to
 * facts) from the page to the public facts, in the order its steps run: the request pipeline's counterpart of
 * auth/route-gates.ts for the public key. A batch stopped at one step never reaches the next, so a request that
 * fails several is answered by the first (sdk-batch-path.e2e.spec.ts sends one per step); sdk-batch-path.spec.ts
 * fails when a step's file or name moves, or a hook is no longer installed where this table says.
 */
export const SDK_BATCH_PATH: readonly BatchStep[] = [
  {
    step: 'admission',
    where: 'apps/api-gateway/src/sdk/sdk-admission.ts',
    symbol: 'SdkAdmission',
    calledFrom: 'apps/api-gateway/src/sdk/sdk-http.module.ts',
    runs: 'onRequest hook',
    refuses: 'nothing itself: it runs the key and budget steps on routes whose config is SDK_ADMITTED, and sets the CORS headers on every answer',
  },
  {
    step: 'key',
    where: 'apps/api-gateway/src/sdk/sdk-keys.ts',
    symbol: 'SdkKeys',
    calledFrom: 'apps/api-gateway/src/sdk/sdk-admission.ts',
    runs: 'onRequest hook',
    refuses: '401 for a missing or unknown key, 403 for a suspended store',
  },
  {
    step: 'budget',
    where: 'apps/api-gateway/src/sdk/sdk-rate-limiter.ts',
    symbol: 'SDK_CLIENT_RATE_LIMITER',
    calledFrom: 'apps/api-gateway/src/sdk/sdk-admission.ts',
    runs: 'onRequest hook',
    refuses: "429 with Retry-After: the client address's tenth of the store's rate, then the store's rate (SDK_RATE_LIMITER)",
  },
  {
    step: 'body',
    where: 'apps/api-gateway/src/sdk/sdk-body.ts',
    symbol: 'readSdkBodiesAsText',
    calledFrom: 'apps/api-gateway/src/sdk/sdk-http.module.ts',
    runs: 'onRequest hook and body parser',
    refuses: '415 for a media type pages and browsers do not post, 413 past SDK_BODY_LIMIT_BYTES',
  },
  {
    step: 'route',
    where: 'apps/api-gateway/src/sdk/sdk-events-route.ts',
    symbol: 'answerSdkEventsBeforeNest',
    calledFrom: 'apps/api-gateway/src/sdk/sdk-http.module.ts',
    runs: 'preHandler hook',
    refuses: "nothing itself: it calls the controller's postEvents before Nest's router, and answers its errors in the error shape",
  },
  {
    step: 'validation',
    where: 'apps/api-gateway/src/sdk/sdk-batch.ts',
    symbol: 'checkBatch',
    calledFrom: 'apps/api-gateway/src/sdk/sdk.controller.ts',
    runs: 'handler',
    refuses: "400 for a body that is no batch; each observation that fails its kind's check (libs/contracts/src/sdk/observations.ts) is rejected by index, the rest taken",
  },
  {
    step: 'page domain',
    where: 'libs/contracts/src/read-models/store.ts',
    symbol: 'isOnStoreDomain',
    calledFrom: 'apps/api-gateway/src/sdk/sdk.controller.ts',
    runs: 'handler',
    refuses: "202 with every observation rejected when page_url is not on the store's domain or its subdomains",
  },
  {
    step: 'edge',
    where: 'apps/api-gateway/src/sdk/intake/sdk-intake.ts',
    symbol: 'SdkIntake',
    calledFrom: 'apps/api-gateway/src/sdk/sdk.controller.ts',
    runs: 'handler',
    refuses: 'nothing: known scripts and unchanged headers are settled in memory; new scripts from an address inventory said is spent are deferred without asking',
  },
  {
    step: 'ingestion',
    where: 'apps/inventory/src/ingestion/sdk-ingestion.service.ts',
    symbol: 'SdkIngestion',
    calledFrom: 'apps/inventory/src/scripts/scripts.messages.ts',
    runs: 'inventory, on COMMANDS.sdkIngest',
    refuses: 'nothing: a new script, a new hash, changed headers and each signal become domain events at once',
  },
  {
    step: 'new-item budget',
    where: 'apps/inventory/src/ingestion/shared-budget.ts',
    symbol: 'SharedBudget',
    calledFrom: 'apps/inventory/src/ingestion/sdk-ingestion.service.ts',
    runs: 'inventory, on COMMANDS.sdkIngest',
    refuses: "202 with the new scripts or signals beyond the store's budget (or the address's share) rejected, to report again after the seconds it names",
  },
  {
    step: 'sightings',
    where: 'apps/api-gateway/src/sdk/intake/sightings-flusher.ts',
    symbol: 'SightingsFlusher',
    calledFrom: 'apps/api-gateway/src/sdk/intake/sdk-intake.ts',
    runs: 'behind the answer',
    refuses: 'nothing: the page view and its known scripts are counted, sent to inventory once per flush window (COMMANDS.sdkRecordSightings)',
  },
  {
    step: 'facts',
    where: 'apps/inventory/src/inventory.integration-events.ts',
    symbol: 'InventoryIntegrationEvents',
    calledFrom: 'apps/inventory/src/inventory.module.ts',
    runs: 'behind the answer',
    refuses: "nothing: the recorded events are published as the catalogue's facts (inventory.script.detected and the rest)",
  },
];
