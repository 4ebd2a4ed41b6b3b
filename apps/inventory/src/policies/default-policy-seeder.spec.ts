import { Logger } from '@nestjs/common';
import { loadConfig } from '@pss/config';
import { POLICIES } from '@pss/contracts';
import { SqliteEventStore, type RecordedEvent } from '@pss/event-store';
import { ProjectionRunner } from '@pss/projections';
import { MemoryReadStore } from '@pss/read-store';
import { ManualClock } from '@pss/testkit';
import type { OrganizationEvent } from '../organizations/organization.decider';
import { DEFAULT_POLICIES, defaultPolicyId } from './default-policies';
import { DefaultPolicySeeder } from './default-policy-seeder';
import { PolicyProjection } from './policy.projection';

describe('default policy seeder', () => {
  const orgId = '0190c0de-0000-7000-8000-00000000000a';
  const created: OrganizationEvent = {
    type: 'OrganizationCreated',
    data: {
      orgId,
      name: 'Acme',
      plan: 'growth',
      billingMode: 'partner',
      parentOrgId: null,
      ownerEmail: null,
      createdAt: '2026-03-01T09:30:00.000Z',
    },
  };
  let eventStore: SqliteEventStore;
  let readStore: MemoryReadStore;
  let runner: ProjectionRunner;
  let seeder: DefaultPolicySeeder;
  let organizationCreated: RecordedEvent;

  beforeEach(async () => {
    eventStore = SqliteEventStore.open(':memory:', { clock: new ManualClock() });
    readStore = new MemoryReadStore();
    runner = new ProjectionRunner(eventStore, readStore, new Logger('test'));
    runner.register(new PolicyProjection());
    await runner.start();
    seeder = new DefaultPolicySeeder(eventStore, runner, loadConfig({}));
    await eventStore.append(`org-${orgId}`, [{ ...created, metadata: { actor: 'admin-cli', correlationId: 'req-1' } }]);
    [organizationCreated] = await eventStore.readStream(`org-${orgId}`);
  });
  afterEach(async () => {
    await runner.stop();
    await eventStore.close();
  });

  it('appends the defaults on their own streams and returns once the policies read model has them', async () => {
    await seeder.handle(organizationCreated);
    const policies = await readStore.collection(POLICIES).find({ org_id: orgId }, { sort: { priority: 1 } });
    expect(policies.map((policy) => policy._id)).toEqual(DEFAULT_POLICIES.map(({ key }) => defaultPolicyId(orgId, key)));
    const [first] = await eventStore.readStream(`policy-${policies[0]._id}`);
    expect(first.metadata).toMatchObject({ actor: 'system', orgId, causationId: organizationCreated.id, correlationId: 'req-1' });
  });

  it('changes nothing when the same organization comes again (a replay, a rebuild)', async () => {
    await seeder.handle(organizationCreated);
    const head = await eventStore.headPosition();
    await seeder.handle(organizationCreated);
    expect(await eventStore.headPosition()).toBe(head);
    expect(await readStore.collection(POLICIES).count({ org_id: orgId })).toBe(DEFAULT_POLICIES.length);
  });
});
