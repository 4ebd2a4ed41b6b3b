import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoopbackServer } from './loopback-server';

export const VENDOR_HOST = 'cdn.widgets-vendor.test';

interface Resource {
  body: string;
  type: string;
  headers: Record<string, string>;
}

/**
 * The shop's side of the browser tests: pages and scripts served on 127.0.0.1, reachable as a second origin at
 * `localhost` on the same port (cross-origin scripts, with or without CORS), and as a vendor with a public-looking
 * host name (`VENDOR_HOST`, which Chromium resolves to 127.0.0.1) where a domain rule needs one. Content can change between page
 * views, as a compromised vendor's would. Nothing is cached but `revalidated` scripts, which the browser asks for again at every page view: each view gets what is served now.
 */
export class FixtureServer extends LoopbackServer {
  private readonly resources = new Map<string, Resource>();
  static start(): Promise<FixtureServer> {
    return new FixtureServer().listen();
  }

  /** `http://127.0.0.1:<port><path>`, or the same path on the second origin (`localhost`) or the vendor's host. */
  url(path: string, origin: 'page' | 'other' | 'vendor' = 'page'): string {
    const host = { page: '127.0.0.1', other: 'localhost', vendor: VENDOR_HOST }[origin];
    return `http://${host}:${this.port}${path}`;
  }

  page(path: string, html: string, headers: Record<string, string> = {}): string {
    this.resources.set(path, { body: html, type: 'text/html; charset=utf-8', headers });
    return this.url(path);
  }

  /**
   * `revalidated`: served as a CDN serves a script (`no-cache` with an `ETag` and `Timing-Allow-Origin`): the
   * browser keeps it and asks again at each page view, a 304 while it is unchanged.
   */
  script(path: string, code: string, { cors = false, revalidated = false }: { cors?: boolean; revalidated?: boolean } = {}): void {
    const headers: Record<string, string> = cors ? { 'Access-Control-Allow-Origin': '*' } : {};
    if (revalidated) Object.assign(headers, { 'Cache-Control': 'no-cache', ETag: `"${createHash('sha1').update(code).digest('hex')}"`, 'Timing-Allow-Origin': '*' });
    this.resources.set(path, { body: code, type: 'application/javascript', headers });
  }

  protected answer(request: IncomingMessage, response: ServerResponse): void {
    const path = (request.url ?? '/').split('?')[0];
    const resource = this.resources.get(path);
    if (!resource) {
      response.writeHead(404).end();
      return;
    }
    if (resource.headers.ETag && request.headers['if-none-match'] === resource.headers.ETag) {
      response.writeHead(304, resource.headers).end();
      return;
    }
    response.writeHead(200, { 'Content-Type': resource.type, 'Cache-Control': 'no-store', ...resource.headers });
    response.end(resource.body);
  }
}
