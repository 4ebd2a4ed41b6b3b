import { utf8 } from './hashing';
import type { Observation } from './observations';
import { quietly, safe } from './safe';
import { remember, remembered } from './tab-store';
import { SDK_VERSION } from '@pss/sdk-contract';

/** A batch stays under 48 KiB: below keepalive's 64 KiB in-flight budget, far below the service's 256 KiB cap. */
export const MAX_BATCH_BYTES = 48 * 1024;
const MAX_BATCH_ITEMS = 200;
// eslint-disable-next-line no-control-regex -- the ASCII range starts at NUL
const NON_ASCII = /[^\x00-\x7f]/;
/** Room kept for the envelope: a page URL of up to 2 KiB, the session id and the version. */
const ENVELOPE_BYTES = 2300;

/**
 * Batches observations to `POST /sdk/v1/events`: `fetch` with `keepalive` and a `text/plain` body (a "simple"
 * request: no CORS preflight), `sendBeacon` where fetch is missing or refuses. Nothing is retried: a lost batch
 * is reported again by the next page view, and a service that is down costs the page nothing.
 */
export class Transport {
  private queue: string[] = [];
  private bytes = 0;
  private held = true;
  private dropped = false;

  private sessionId?: string;
  private timer?: ReturnType<typeof setTimeout>;

  /** @param wait how long an observation may wait for its batch (no timer runs while nothing waits) */
  constructor(
    private readonly url: string,
    private readonly wait: () => number,
  ) {}

  add(observation: Observation): void {
    if (this.dropped) return;
    const item = JSON.stringify(observation);
    if (this.held && this.queue.length >= MAX_BATCH_ITEMS) return; // the config is late: keep a bounded backlog
    const size = (NON_ASCII.test(item) ? utf8(item).length : item.length) + 1; // most items are ASCII: no encoding
    if (size + ENVELOPE_BYTES > MAX_BATCH_BYTES) return; // one absurd item never blocks the rest
    if (this.bytes + size + ENVELOPE_BYTES > MAX_BATCH_BYTES || this.queue.length >= MAX_BATCH_ITEMS) this.flush();
    this.queue.push(item);
    this.bytes += size;
    this.schedule();
  }

  /** Sending starts once the config says the SDK is not paused. */
  release(): void {
    this.held = false;
    this.schedule();
  }

  private schedule(): void {
    if (this.timer === undefined && !this.held && this.queue.length) this.timer = setTimeout(this.flush, this.wait());
  }

  /** Developer mode: nothing observed is sent; one empty batch tells the service the SDK is installed. */
  pause(): void {
    this.dropped = true;
    this.queue = [];
    this.bytes = 0;
    this.post(this.batch([]));
  }

  /** The key was refused: nothing more is sent. */
  stop(): void {
    this.dropped = true;
    this.queue = [];
    this.bytes = 0;
  }

  /** Each batch leaves with `keepalive`, so the last one (pagehide, tab hidden) outlives the page. */
  flush = safe((): void => {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.held || this.dropped || this.queue.length === 0) return;
    const body = this.batch(this.queue);
    this.queue = [];
    this.bytes = 0;
    this.post(body);
  });

  /** The page as it is when the batch leaves (an SPA changes it): no query, no fragment, they may carry personal data. */
  private batch(items: string[]): string {
    this.sessionId = this.sessionId || tabSessionId(); // read when the first batch leaves, never at start
    const envelope = JSON.stringify({ page_url: (location.origin + location.pathname).slice(0, 2048), session_id: this.sessionId, sdk_version: SDK_VERSION });
    return `${envelope.slice(0, -1)},"observations":[${items.join(',')}]}`;
  }

  private post = safe((body: string): void => {
    if (typeof fetch === 'function') {
      try {
        quietly(fetch(this.url, { method: 'POST', body, keepalive: true, mode: 'cors', credentials: 'omit', headers: { 'Content-Type': 'text/plain' } }));
        return;
      } catch {
        // a body over keepalive's budget throws at once in some browsers: the beacon below takes it
      }
    }
    if (navigator.sendBeacon) navigator.sendBeacon(this.url, body);
  });
}

/** One id per tab, kept across the tab's page views, none shared between tabs. */
function tabSessionId(): string {
  const known = remembered('session', 'pss.sid');
  if (known) return known;
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let id = '';
  for (let i = 0; i < bytes.length; i += 1) id += (bytes[i] < 16 ? '0' : '') + bytes[i].toString(16);
  remember('session', 'pss.sid', id);
  return id;
}
