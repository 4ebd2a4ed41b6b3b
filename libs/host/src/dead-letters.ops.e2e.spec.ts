import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Controller, Module } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { BUS, EVENT_HANDLER_ATTEMPTS, type Bus } from '@pss/bus';
import { loadConfig } from '@pss/config';
import { OpsRegistry } from '@pss/ops';
import { eventually } from '@pss/testkit';
import { createServiceApp } from './service-app';
import type { ListedDeadLetter } from './dead-letters.ops';

/** A consumer with a bug until the test fixes it (`fixed`), recording what it handled. */
@Controller()
class PoisonedConsumer {
  static fixed = false;
  static readonly handled: string[] = [];

  @EventPattern('inventory.store.created')
  handle(@Payload() event: { id: string }): void {
    if (!PoisonedConsumer.fixed) throw new Error('Cannot read properties of undefined (reading "domain")');
    PoisonedConsumer.handled.push(event.id);
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

  it('replays it once its cause is fixed (`npm run projections -- dead-letters replay`): the handler gets the event again', async () => {
    PoisonedConsumer.fixed = true;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['-r', './tools/register.js', 'tools/cli/projections.ts', 'dead-letters', 'replay', '--topic', 'inventory.store.created'],
      { env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'error' } },
    );

    expect(stdout).toContain('replayed 1 dead letters');
    await eventually(() => PoisonedConsumer.handled, (handled) => handled.includes('evt-1'));
    expect(await app.get(OpsRegistry).run('bus.dead-letters.replay', { topic: 'another.topic' })).toEqual({ replayed: 0 });
  }, 30_000);
});
