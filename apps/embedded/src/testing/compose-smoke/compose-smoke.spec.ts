import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { CONTAINER_IMAGES } from '@pss/testkit';
import { SKIPPED } from './compose-smoke';

const ROOT = resolve(__dirname, '../../../../..');
const read = (path: string) => parse(readFileSync(join(ROOT, path), 'utf8'), { merge: true });
const ENGINES = { kafka: CONTAINER_IMAGES.kafka, eventstore: CONTAINER_IMAGES.kurrentdb, mongo: CONTAINER_IMAGES.mongo, mailpit: CONTAINER_IMAGES.mailpit };
const SERVICES = ['api-gateway', 'inventory', 'alerts', 'reports', 'notifier'];

describe('compose smoke test', () => {
  it('says in one line that it skipped, and succeeds, where no docker answers', () => {
    const emptyPath = mkdtempSync(join(tmpdir(), 'pss-no-docker-'));
    try {
      const run = spawnSync(process.execPath, ['-r', './tools/register.js', 'apps/embedded/src/testing/compose-smoke/compose-smoke.ts'], {
        cwd: ROOT,
        env: { ...process.env, PATH: emptyPath },
        encoding: 'utf8',
      });
      expect({ status: run.status, stdout: run.stdout }).toEqual({ status: 0, stdout: `${SKIPPED}\n` });
    } finally {
      rmSync(emptyPath, { recursive: true, force: true });
    }
  }, 30_000);
});

describe('docker-compose.yml', () => {
  const compose = read('docker-compose.yml');

  it('runs the engine releases the testcontainers suites run', () => {
    for (const [service, image] of Object.entries(ENGINES)) expect({ service, image: compose.services[service].image }).toEqual({ service, image });
  });

  it('gives every container a health check, so `docker compose up --wait` means ready', () => {
    for (const [name, service] of Object.entries<any>(compose.services)) expect({ name, test: service.healthcheck?.test?.length > 0 }).toEqual({ name, test: true });
  });

  it('starts each service once Kafka, KurrentDB and MongoDB are healthy, the notifier once Mailpit is too', () => {
    for (const name of SERVICES) {
      const dependsOn = compose.services[name].depends_on;
      for (const engine of ['kafka', 'eventstore', 'mongo']) expect({ name, engine, condition: dependsOn[engine]?.condition }).toEqual({ name, engine, condition: 'service_healthy' });
    }
    expect(compose.services.notifier.depends_on.mailpit).toEqual({ condition: 'service_healthy' });
    for (const name of SERVICES.filter((service) => service !== 'api-gateway')) expect(compose.services['api-gateway'].depends_on[name]).toEqual({ condition: 'service_healthy' });
  });

  it('runs Kafka 4 as one combined broker and controller, MongoDB as a replica set its health check initiates', () => {
    expect(compose.services.kafka.environment).toMatchObject({ KAFKA_PROCESS_ROLES: 'broker,controller', KAFKA_CONTROLLER_QUORUM_VOTERS: '1@kafka:9093' });
    expect(compose.services.kafka.image).toMatch(/^apache\/kafka:4\.\d+\.\d+$/);
    expect(compose.services.mongo.command).toEqual(expect.arrayContaining(['--replSet', 'rs0']));
    expect(compose.services.mongo.healthcheck.test.join(' ')).toContain("rs.initiate({_id: 'rs0'");
    expect(compose.services.inventory.environment.MONGO_URL).toContain('replicaSet=rs0');
  });

  it('pins every image to a full release', () => {
    for (const image of Object.values(ENGINES)) expect(image).toMatch(/:v?\d+\.\d+\.\d+$/);
  });
});

describe('.github/workflows/distributed.yml', () => {
  const workflow = read('.github/workflows/distributed.yml');
  const steps: Array<{ uses?: string; run?: string; env?: Record<string, string> }> = workflow.jobs.containers.steps;

  it('pins each action to a major version', () => {
    const actions = steps.flatMap((step) => (step.uses ? [step.uses] : []));
    expect(actions).toEqual(['actions/checkout@v4', 'actions/setup-node@v4']);
  });

  it('runs the container suites with a missing runtime made an error, then the compose smoke script, whose files exist', () => {
    const suites = steps.find((step) => step.run?.includes('describeWithContainers('));
    expect(suites?.env).toEqual({ PSS_CONTAINER_RUNTIME: 'available' });
    const smoke = steps.find((step) => step.run?.includes('compose-smoke.ts'));
    expect(steps.indexOf(smoke!)).toBeGreaterThan(steps.indexOf(suites!));
    const script = smoke!.run!.split(' ').pop()!;
    expect(existsSync(join(ROOT, script))).toBe(true);
    expect(readFileSync(join(ROOT, script), 'utf8')).toContain("'.ci/compose-smoke.yml'");
    expect(read('.ci/compose-smoke.yml').services.notifier.environment).toEqual({ WEBHOOK_ALLOW_HOSTS: 'host.docker.internal', NODE_EXTRA_CA_CERTS: '/smoke/receiver.pem' });
  });
});
