import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Controller, Get, Module, Post, Req } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import { loadConfig } from '@pss/config';
import { createServiceApp, REQUEST_TIMEOUTS, type RequestTimeouts } from './service-app';

const TIMEOUTS = { headersMs: 300, requestMs: 600, checkEveryMs: 50 };

@Controller()
class ClientAddressController {
  @Get('who')
  who(@Req() request: FastifyRequest) {
    return { ip: request.ip };
  }

  @Post('upload')
  upload() {
    return { ok: true };
  }

  @Get('slow')
  async slow() {
    await new Promise((resolve) => setTimeout(resolve, TIMEOUTS.requestMs + 200));
    return { ok: true };
  }
}

@Module({ controllers: [ClientAddressController] })
class ClientAddressModule {}

const dataDirs: string[] = [];

/** A service with the test's short timeouts, unless `options` leaves them out. */
async function serviceWith(env: Record<string, string> = {}, options: { requestTimeouts?: RequestTimeouts } = { requestTimeouts: TIMEOUTS }): Promise<NestFastifyApplication> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pss-request-limits-'));
  dataDirs.push(dataDir);
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'error', ...env });
  return createServiceApp({ name: 'embedded', modules: [ClientAddressModule], config, ...options });
}

afterAll(() => dataDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A client that sends `parts` one at a time, `everyMs` apart, and resolves with what it got back when the server closed. */
function trickle(port: number, parts: string[], everyMs: number): Promise<{ received: string; elapsedMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket: Socket = connect(port, '127.0.0.1');
    let received = '';
    let timer: NodeJS.Timeout | undefined;
    const sendNext = () => {
      const part = parts.shift();
      if (part !== undefined && socket.writable) socket.write(part);
      if (parts.length > 0) timer = setTimeout(sendNext, everyMs);
    };
    socket.on('connect', sendNext);
    socket.on('data', (chunk) => (received += chunk.toString('utf8')));
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' || error.code === 'EPIPE' ? undefined : reject(error)));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ received, elapsedMs: Date.now() - started });
    });
  });
}

const timedOut = (received: string) => {
  const [head, body] = received.split('\r\n\r\n');
  return { status: head.split('\r\n')[0], body: JSON.parse(body) };
};

const REQUEST_TIMEOUT_ANSWER = {
  status: 'HTTP/1.1 408 Request Timeout',
  body: { error: { code: 'request_timeout', message: 'The request took too long to arrive' } },
};

/** A slow client cannot hold a connection (slowloris): past the timeouts it gets 408 in the error shape, and is closed. */
describe('a request too slow to arrive (a real socket)', () => {
  let app: NestFastifyApplication;
  let port: number;

  beforeAll(async () => {
    app = await serviceWith();
    await app.listen(0, '127.0.0.1');
    port = (app.getHttpServer().address() as { port: number }).port;
  });
  afterAll(() => app?.close());

  it('is answered 408 request_timeout when its headers trickle in a line at a time', async () => {
    const lines = ['GET /who HTTP/1.1\r\n', 'Host: x\r\n', ...Array.from({ length: 40 }, (_, n) => `X-Slow-${n}: 1\r\n`), '\r\n'];
    const { received, elapsedMs } = await trickle(port, lines, 50);
    expect(timedOut(received)).toEqual(REQUEST_TIMEOUT_ANSWER);
    expect(elapsedMs).toBeLessThan(TIMEOUTS.headersMs + 1_000);
  });

  it('is answered 408 request_timeout when its body trickles in a byte at a time', async () => {
    const head = 'POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n';
    const { received, elapsedMs } = await trickle(port, [head, ...Array.from({ length: 100 }, () => ' ')], 50);
    expect(timedOut(received)).toEqual(REQUEST_TIMEOUT_ANSWER);
    expect(elapsedMs).toBeLessThan(TIMEOUTS.requestMs + 1_000);
  });

  it('leaves a request that arrived in time alone, however long its route takes to answer', async () => {
    const { received } = await trickle(port, ['GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n', '\r\n'], 100);
    expect(received).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\{"ok":true\}$/);
  });

  it('gives a service headers within 10 s and the whole request within 30 s unless a test shortens them', async () => {
    const service = await serviceWith({}, {});
    const server = service.getHttpServer() as Server;
    expect([server.headersTimeout, server.requestTimeout]).toEqual([REQUEST_TIMEOUTS.headersMs, REQUEST_TIMEOUTS.requestMs]);
    expect(REQUEST_TIMEOUTS).toEqual({ headersMs: 10_000, requestMs: 30_000, checkEveryMs: 1_000 });
    await service.close();
  });
});

/** `request.ip` is the peer unless TRUST_PROXY names it: a client cannot choose its address with X-Forwarded-For. */
describe('the client address', () => {
  const whoIs = async (app: NestFastifyApplication, remoteAddress: string, forwardedFor?: string) => {
    const answer = await app.inject({ method: 'GET', url: '/who', remoteAddress, headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} });
    return answer.json().ip;
  };

  it('is the peer when no proxy is trusted, whatever X-Forwarded-For says', async () => {
    const app = await serviceWith();
    expect(await whoIs(app, '203.0.113.9', '198.51.100.1')).toBe('203.0.113.9');
    await app.close();
  });

  it('is the forwarded address when the peer is a trusted proxy, and the peer when it is not', async () => {
    const app = await serviceWith({ TRUST_PROXY: '10.0.0.0/8' });
    expect(await whoIs(app, '10.1.2.3', '198.51.100.1')).toBe('198.51.100.1');
    // A client's own X-Forwarded-For, appended to by the proxy: the proxy's entry is the one believed.
    expect(await whoIs(app, '10.1.2.3', '6.6.6.6, 198.51.100.1')).toBe('198.51.100.1');
    expect(await whoIs(app, '203.0.113.9', '198.51.100.1')).toBe('203.0.113.9');
    await app.close();
  });

  it('is the address that many hops back when TRUST_PROXY is a number', async () => {
    const app = await serviceWith({ TRUST_PROXY: '1' });
    expect(await whoIs(app, '10.1.2.3', '6.6.6.6, 198.51.100.1')).toBe('198.51.100.1');
    await app.close();
  });
});
