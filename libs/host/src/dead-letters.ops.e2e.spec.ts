import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Controller, Module } from '@nestjs/common';
import { EventPattern } from '@nestjs/microservices';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { BUS, EVENT_HANDLER_ATTEMPTS, type Bus } from '@pss/bus';
import { loadConfig } from '@pss/config';
import { OpsRegistry } from '@pss/ops';
import { eventually } from '@pss/testkit';
import { createServiceApp } from './service-app';
import type { ListedDeadLetter } from './dead-letters.ops';

@Controller()
class PoisonedConsumer {
  @EventPattern('inventory.store.created')
  handle(): never {
    throw new Error('Cannot read properties of undefined (reading "domain")');
  }
}

@Module({ controllers: [PoisonedConsumer] })
class PoisonedModule {}

/** An event whose handler gives up is listed for operators, by the ops command and by the projections CLI. */
describe('dead letters for operators (embedded)', () => {
  let app: NestFastifyApplication;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'pss-dead-letters-'));
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'error' });
    app = await createServiceApp({ name: 'embedded', modules: [PoisonedModule], config });
    await app.get<Bus>(BUS).publish('inventory.store.created', { id: 'evt-1', data: { storeId: 'store-1' } }, { key: 'store-1' });
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('lists the event with its topic, the error, the attempts and when', async () => {
    const listed = (await eventually(
      () => app.get(OpsRegistry).run('bus.dead-letters', {}),
      (letters) => (letters as ListedDeadLetter[]).length > 0,
    )) as ListedDeadLetter[];

    expect(listed).toEqual([
      {
        topic: 'inventory.store.created',
        key: null,
        error: 'Cannot read properties of undefined (reading "domain")',
        attempts: EVENT_HANDLER_ATTEMPTS,
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);
  });

  it('shows it under the projections in `npm run projections -- list`, through the control socket', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['-r', './tools/register.js', 'tools/cli/projections.ts', 'list'], {
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'error' },
    });

    expect(stdout).toContain('dead letters: 1');
    expect(stdout).toMatch(/inventory\.store\.created {2}key - {2}after 5 attempts: Cannot read properties of undefined/);
  }, 30_000);
});
