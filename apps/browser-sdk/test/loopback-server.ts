import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A test's HTTP server on 127.0.0.1 at a port the system picks; the subclass says what it answers. */
export abstract class LoopbackServer {
  private readonly server = createServer((request, response) => this.answer(request, response));

  protected abstract answer(request: IncomingMessage, response: ServerResponse): void;

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** Answers the server once it listens, so `port` is known. */
  protected async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  /** Drops kept-alive browser connections too: `close` alone would wait for Chromium to let them go. */
  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
