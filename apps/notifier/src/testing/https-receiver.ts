import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '@pss/testkit';

export interface TestCertificate {
  key: string;
  /** Self-signed: also the CA to trust. */
  cert: string;
}

let certificate: TestCertificate | undefined;

/**
 * A throw-away self-signed certificate for 127.0.0.1, ::1, localhost, receiver.test and host.docker.internal (how
 * the compose smoke test's containers reach it), made by the openssl binary once per test file.
 */
export function testCertificate(): TestCertificate {
  if (certificate) return certificate;
  const dir = mkdtempSync(join(tmpdir(), 'pss-cert-'));
  try {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2',
      '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,DNS:receiver.test,DNS:host.docker.internal,IP:127.0.0.1,IP:::1',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
    ], { stdio: 'ignore' });
    certificate = { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
    return certificate;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  /** The body exactly as it came off the wire. */
  raw: Buffer;
  json: any;
}

/** How the receiver answers: a status and body, a redirect, or no answer at all. */
export type Answer = { status: number; body?: string; location?: string } | 'hang';

/**
 * A local HTTPS webhook receiver, on 127.0.0.1 unless told (the compose smoke test listens on every interface so
 * that containers reach it): keeps every request it gets with its raw body, and answers as the
 * test says (fail, redirect, hang, recover).
 */
export class HttpsReceiver {
  readonly received: ReceivedRequest[] = [];
  private answer: (request: ReceivedRequest) => Answer = () => ({ status: 200, body: 'ok' });

  private constructor(private readonly server: Server) {}

  static async start(host = '127.0.0.1'): Promise<HttpsReceiver> {
    const server = createServer(testCertificate());
    const receiver = new HttpsReceiver(server);
    server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const raw = Buffer.concat(chunks);
        const received = { path: request.url ?? '', headers: request.headers, raw, json: parse(raw) };
        receiver.received.push(received);
        receiver.reply(response, receiver.answer(received));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path = '/hook', host = '127.0.0.1'): string {
    return `https://${host}:${this.port}${path}`;
  }

  answerWith(answer: Answer | ((request: ReceivedRequest) => Answer)): void {
    this.answer = typeof answer === 'function' ? answer : () => answer;
  }

  /** The requests received on `path`, once there are at least `count` of them (2 seconds at most). */
  waitFor(count: number, path = '/hook'): Promise<ReceivedRequest[]> {
    return this.until((received) => received.length >= count, path);
  }

  /** The requests received on `path`, once `done` says so (2 seconds at most). */
  until(done: (received: ReceivedRequest[]) => boolean, path = '/hook'): Promise<ReceivedRequest[]> {
    return eventually(() => this.received.filter((request) => request.path === path), done);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private reply(response: ServerResponse, answer: Answer): void {
    if (answer === 'hang') return;
    if (answer.location) response.setHeader('location', answer.location);
    response.writeHead(answer.status).end(answer.body ?? '');
  }
}

function parse(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
}
