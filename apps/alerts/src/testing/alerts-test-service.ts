import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { BUS, type Bus } from '@pss/bus';
import { loadConfig } from '@pss/config';
import { ALERTS, toResource, type AlertDocument, type IntegrationEvent } from '@pss/contracts';
import { createServiceApp } from '@pss/host';
import type { Clock } from '@pss/kernel';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { AlertsModule } from '../alerts.module';

/**
 * The alerts service alone, embedded, on a fresh data directory: its consumers are called directly, as the bus
 * would, and what it publishes is kept in `published`.
 */
export class AlertsTestService {
  readonly published: IntegrationEvent[] = [];

  private constructor(
    readonly app: NestFastifyApplication,
    private readonly dataDir: string,
  ) {
    const bus = app.get<Bus>(BUS);
    const publish = bus.publish.bind(bus);
    bus.publish = async (topic, payload, options) => {
      this.published.push(payload as IntegrationEvent);
      await publish(topic, payload, options);
    };
  }

  static async start(clock: Clock): Promise<AlertsTestService> {
    const dataDir = mkdtempSync(join(tmpdir(), 'pss-alerts-'));
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'error' });
    return new AlertsTestService(await createServiceApp({ name: 'alerts', modules: [AlertsModule], config, clock }), dataDir);
  }

  async alerts(filter: Record<string, unknown>) {
    const docs = await this.app.get<ReadStore>(READ_STORE).collection<AlertDocument>(ALERTS).find(filter, { sort: { created_at: 1, _id: 1 } });
    return docs.map(toResource);
  }

  /** The topics published so far for an alert (the publisher runs behind the writes: waits for it a little). */
  async publishedFor(alertId: string, expected: number): Promise<string[]> {
    const topics = () => this.published.filter((event) => (event.data as { id: string }).id === alertId).map((event) => event.type);
    for (let waited = 0; topics().length < expected && waited < 2000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    return topics();
  }

  async close(): Promise<void> {
    await this.app.close();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}
