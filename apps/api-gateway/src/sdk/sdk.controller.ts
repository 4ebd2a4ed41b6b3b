import { applyDecorators, Body, Controller, Get, Headers, HttpCode, Options, Param, Post, Query, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isOnStoreDomain, SDK_LOADER_CSP_HASH, type StoreDocument } from '@pss/contracts';
import { DomainError } from '@pss/kernel';
import { Metrics } from '@pss/metrics';
import type { Frozen } from '@pss/read-store';
import { Public } from '../auth/scopes.decorator';
import { clientGroup } from './client-group';
import { checkCspReports } from './csp-reports';
import { noneMatch } from './if-none-match';
import { ClientAddresses } from './intake/client-addresses';
import { SdkIntake, type IntakeBatch } from './intake/sdk-intake';
import { answerOf, checkBatch, parseSdkJson, type Rejection } from './sdk-batch';
import { SDK_RAW_BODY, sdkBody } from './sdk-body';
import { KeyedSdkScripts } from './keyed-sdk-scripts';
import { SdkBundle, type ServedScript } from './sdk-bundle';
import { SdkConfigDocument } from './sdk-config';
import { SdkKeys } from './sdk-keys';
import { SDK_ADMITTED, SdkAdmission } from './sdk-admission';
import { SDK_CORS } from './sdk-cors';

/** SDK batches are small (the SDK sends at most 48 KiB); a bigger one is a broken or hostile client. */
export const SDK_BODY_LIMIT_BYTES = 256 * 1024;
const CONFIG_MAX_AGE_SECONDS = 30;
/** The moving `sdk.js` is re-checked every 5 minutes (a fix reaches pages quickly); versioned copies never change. */
const SCRIPT_MAX_AGE_SECONDS = 300;
const IMMUTABLE_MAX_AGE_SECONDS = 365 * 24 * 3600;
/** CSP reports carry no SDK session: they are one synthetic session per report endpoint. */
const CSP_SESSION = 'csp-report';
const CSP_SOURCE_VERSION = 'csp-report';

/**
 * A route the SDK posts observations to: its key admitted before the body is read (sdk-admission.ts), the body
 * taken as text (sdk-body.ts), answered 202 once taken in.
 */
const IntakeRoute = (path: string) => applyDecorators(Post(path), HttpCode(202), RouteConfig({ ...SDK_RAW_BODY, ...SDK_ADMITTED }));

/** SDK contract v1 (DESIGN.md section 5, docs/sdk.md). */
@Controller('sdk/v1')
@Public()
export class SdkController {
  constructor(
    private readonly keys: SdkKeys,
    private readonly config: SdkConfigDocument,
    private readonly bundle: SdkBundle,
    private readonly keyed: KeyedSdkScripts,
    private readonly admission: SdkAdmission,
    private readonly intake: SdkIntake,
    private readonly addresses: ClientAddresses,
    private readonly metrics: Metrics,
  ) {}

  @Options(['config', 'events', 'csp'])
  @HttpCode(204)
  preflight(@Res({ passthrough: true }) reply: FastifyReply): void {
    reply.headers(SDK_CORS);
  }

  /**
   * The SDK itself: what every install snippet loads. For a store's key, its channel's release with its config
   * inside; for no key or one the service refuses, the stable release alone (it asks for its config, is refused,
   * and does nothing: a script tag never breaks the page).
   */
  @Get('sdk.js')
  async script(@Query('key') key: unknown, @Headers() headers: Record<string, string | undefined>, @Res({ passthrough: true }) reply: FastifyReply) {
    const store = key === undefined ? undefined : await this.keys.storeOf(key).catch(() => undefined);
    const script = store ? await this.keyed.of(store) : this.bundle.channel('stable');
    return this.serve(script, `public, max-age=${SCRIPT_MAX_AGE_SECONDS}`, headers, reply);
  }

  /** An immutable copy per version, to pin with `integrity` (its hash is in `/sdk/v1/versions` and the config). */
  @Get('sdk-:version.js')
  versioned(@Param('version') version: string, @Headers() headers: Record<string, string | undefined>, @Res({ passthrough: true }) reply: FastifyReply) {
    const release = this.bundle.release(version);
    // Named back only when it reads as a version: an error never echoes what else a client sent.
    if (!release) throw new DomainError('not_found', `${/^[0-9A-Za-z.+-]{1,32}$/.test(version) ? `SDK version ${version}` : 'This SDK version'} is not served here`);
    return this.serve(release, `public, max-age=${IMMUTABLE_MAX_AGE_SECONDS}, immutable`, headers, reply);
  }

  @Get('versions')
  versions(@Res({ passthrough: true }) reply: FastifyReply) {
    reply.headers({ ...SDK_CORS, 'Cache-Control': `public, max-age=${SCRIPT_MAX_AGE_SECONDS}` });
    return {
      channels: { stable: this.bundle.channel('stable').version, latest: this.bundle.channel('latest').version },
      versions: this.bundle.releases().map((release) => this.config.describe(release)),
      loader: { csp_hash: SDK_LOADER_CSP_HASH },
    };
  }

  @Get('config')
  @RouteConfig(SDK_ADMITTED)
  async getConfig(@Req() request: FastifyRequest, @Headers('if-none-match') ifNoneMatch: string | undefined, @Res({ passthrough: true }) reply: FastifyReply) {
    // Built from the read models on every request: the store's rate bounds what a flood on its public key costs.
    const { body, etag } = await this.config.of(this.admission.storeOf(request));
    reply.headers({ ETag: etag, 'Cache-Control': `public, max-age=${CONFIG_MAX_AGE_SECONDS}` });
    if (noneMatch(ifNoneMatch, etag)) {
      reply.status(304);
      return undefined;
    }
    return body;
  }

  @IntakeRoute('events')
  async postEvents(@Req() request: FastifyRequest, @Body() body: unknown) {
    const store = this.admission.storeOf(request);
    const batch = checkBatch(parseSdkJson(sdkBody(body).text));
    // An empty batch is the heartbeat of a paused SDK (developer mode): taken as usage, never as monitoring (page-view.ts).
    const deferred =
      batch.accepted.length > 0 || batch.rejected === 0
        ? await this.take(store, { pageUrl: batch.pageUrl, sessionId: batch.sessionId, sdkVersion: batch.sdkVersion, observations: batch.accepted, client: this.addresses.of(clientGroup(request.ip)) }, batch.indexes)
        : [];
    const answer = answerOf(batch.accepted.length, batch, deferred);
    this.metrics.sdkBatch('events', answer.accepted, answer.rejected);
    return answer;
  }

  /** Browser-native CSP reports (report-uri and report-to), turned into the same observations. */
  @IntakeRoute('csp')
  async postCspReports(@Req() request: FastifyRequest, @Body() body: unknown) {
    const store = this.admission.storeOf(request);
    const reports = checkCspReports(parseSdkJson(sdkBody(body).text));
    const deferred: Rejection[] = [];
    const client = this.addresses.of(clientGroup(request.ip));
    for (const page of reports.pages) {
      if (page.accepted.length === 0) continue;
      deferred.push(...(await this.take(store, { pageUrl: page.pageUrl, sessionId: CSP_SESSION, sdkVersion: CSP_SOURCE_VERSION, observations: page.accepted, client }, page.indexes)));
    }
    const answer = answerOf(reports.accepted, reports, deferred);
    this.metrics.sdkBatch('csp', answer.accepted, answer.rejected);
    return answer;
  }

  /**
   * Takes the batch in; answers what the store's budgets could not cover (new scripts, new signals) and what it
   * refused (the headers of a path past the store's cap), rejected by client index (`indexes`). Only that is
   * left out: a flood of forged scripts or signals cannot hide the rest of a real page view, and a later page
   * view reports what was left out again.
   */
  private async take(store: Frozen<StoreDocument>, batch: IntakeBatch, indexes: number[]): Promise<Rejection[]> {
    // The key is public: a page elsewhere could make the store keep any path (docs/decisions.md, issue 29).
    if (!isOnStoreDomain(batch.pageUrl, store)) {
      return indexes.map((index) => ({ index, reason: `page_url is not on this store's domain (${store.domain} or its subdomains): nothing of the batch is recorded` }));
    }
    const { deferred, refused } = await this.intake.take(store, batch);
    if (deferred.length > 0) this.metrics.rateLimited('sdk_new_items');
    return [
      ...deferred.map(({ position, what, spent, retryAfterSeconds }) => ({
        index: indexes[position],
        reason: `new ${what} not recorded: ${spent === 'address' ? "this address's share of " : ''}this store's limit of new ${what}s is spent; report it again after ${retryAfterSeconds} seconds`,
      })),
      ...refused.map(({ position, reason }) => ({ index: indexes[position], reason })),
    ];
  }

  /** The script, gzipped for clients that accept it (its own ETag: another representation of the same bytes). */
  private serve(release: ServedScript, cacheControl: string, headers: Record<string, string | undefined>, reply: FastifyReply) {
    const gzip = /\bgzip\b/.test(headers['accept-encoding'] ?? '');
    const etag = gzip ? `${release.etag.slice(0, -1)}-gzip"` : release.etag;
    reply.headers({
      'Access-Control-Allow-Origin': '*',
      'Cross-Origin-Resource-Policy': 'cross-origin',
      'X-Content-Type-Options': 'nosniff',
      'Content-Type': 'application/javascript; charset=utf-8',
      'Cache-Control': cacheControl,
      Vary: 'Accept-Encoding',
      ETag: etag,
    });
    if (noneMatch(headers['if-none-match'], etag)) {
      reply.status(304);
      return undefined;
    }
    if (gzip) reply.header('Content-Encoding', 'gzip');
    return gzip ? release.gzip : release.code;
  }
}
