import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { SERVICE_CONFIG, type ServiceConfig } from '@pss/config';
import { serializeError } from '@pss/kernel';
import { PLATFORM_OPTIONS, type PlatformOptions } from '@pss/platform';
import { OpsRegistry } from './ops-registry';
import type { OpsReply, OpsRequest } from './ops-command';

/**
 * The control socket of a running process: a Unix socket in the data directory, readable by its owner only,
 * so operating the service needs shell access to its host and no network-facing admin endpoint exists.
 */
@Injectable()
export class OpsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Ops');
  private server?: Server;

  constructor(
    private readonly registry: OpsRegistry,
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
    @Inject(PLATFORM_OPTIONS) private readonly options: PlatformOptions,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.options.background) return; // a CLI booting the service's code answers its own call only
    const path = this.config.opsSocket;
    mkdirSync(dirname(path), { recursive: true });
    if (await isAnswering(path)) throw new Error(`another process already serves ${path}`);
    rmSync(path, { force: true }); // left behind by a crash
    this.server = createServer((socket) => this.serve(socket));
    await new Promise<void>((resolve, reject) => this.server!.once('error', reject).listen(path, resolve));
    chmodSync(path, 0o600);
    this.logger.log({ message: 'ops socket listening', path });
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.server) return;
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    rmSync(this.config.opsSocket, { force: true });
  }

  private serve(socket: Socket): void {
    const send = (reply: OpsReply) => socket.writable && socket.write(`${JSON.stringify(reply)}\n`);
    // A client that goes away (Ctrl-C on the CLI) cancels its command: nobody is left to read the outcome.
    const callerGone = new AbortController();
    socket.once('close', () => callerGone.abort());
    const lines = createInterface({ input: socket });
    lines.once('line', async (line) => {
      lines.close();
      try {
        const request = JSON.parse(line) as OpsRequest;
        this.logger.log({ message: 'ops command', command: request.command });
        const result = await this.registry.run(request.command, request.args ?? {}, (progress) => send({ type: 'progress', progress }), callerGone.signal);
        send({ type: 'result', result });
      } catch (error) {
        if (callerGone.signal.aborted) this.logger.log({ message: 'ops command cancelled: the caller went away' });
        send({ type: 'error', error: serializeError(error) });
      } finally {
        socket.end();
      }
    });
    socket.on('error', (error) => this.logger.warn({ message: 'ops connection error', error: error.message }));
  }
}

export function isAnswering(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(path);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
