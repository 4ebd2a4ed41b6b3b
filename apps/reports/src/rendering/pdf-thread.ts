import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { SnapshotOwnMeta } from '@pss/contracts';
import type { PdfJob, PdfOutcome } from './pdf-thread.worker';

/**
 * Renders report PDFs in one worker thread: a large report takes seconds of JSON parsing and PDFKit, which on the
 * service's event loop would hold every request it serves meanwhile. The thread starts at the first PDF and is
 * started again after it fails.
 */
@Injectable()
export class PdfThread implements OnModuleDestroy {
  private readonly logger = new Logger('PdfThread');
  private worker?: Worker;
  private readonly pending = new Map<number, { resolve: (pdf: Buffer) => void; reject: (error: Error) => void }>();
  private nextId = 1;

  render(stored: string, own: SnapshotOwnMeta | null, snapshot: PdfJob['snapshot']): Promise<Buffer> {
    const job: PdfJob = { id: this.nextId++, stored, own, snapshot };
    return new Promise<Buffer>((resolve, reject) => {
      this.pending.set(job.id, { resolve, reject });
      const worker = this.thread();
      // Held while it renders (a caller waits on it); idle, it keeps no process alive.
      worker.ref();
      worker.postMessage(job);
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.worker?.terminate();
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker();
    worker.on('message', (outcome: PdfOutcome) => this.settle(outcome));
    worker.on('error', (error) => this.fail(worker, error));
    worker.on('exit', (code) => this.fail(worker, new Error(`the PDF thread exited (${code})`)));
    this.worker = worker;
    return worker;
  }

  private settle(outcome: PdfOutcome): void {
    const waiting = this.pending.get(outcome.id);
    this.pending.delete(outcome.id);
    if (!this.pending.size) this.worker?.unref();
    if ('error' in outcome) waiting?.reject(new Error(outcome.error));
    else waiting?.resolve(Buffer.from(outcome.pdf.buffer, outcome.pdf.byteOffset, outcome.pdf.byteLength));
  }

  /** Every render it held fails (the caller answers 500, a retry renders afresh); the next render starts a thread. */
  private fail(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    if (this.pending.size) this.logger.error({ message: 'PDF thread failed', error: error.message });
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}

/**
 * The sources are TypeScript compiled on load (tools/register.js): the thread registers the same compiler before
 * loading its entry, which a Worker given a `.ts` path would refuse. Compiled JavaScript loads as it is.
 */
function startWorker(): Worker {
  const entry = join(__dirname, `pdf-thread.worker${extname(__filename)}`);
  if (extname(__filename) !== '.ts') return new Worker(entry);
  const source = `require(${JSON.stringify(require.resolve('@swc-node/register'))}); require(${JSON.stringify(entry)});`;
  return new Worker(source, { eval: true, execArgv: [] });
}
