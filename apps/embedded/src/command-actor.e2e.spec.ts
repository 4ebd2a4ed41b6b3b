import { BUS, type Bus } from '@pss/bus';
import { COMMANDS } from '@pss/contracts';
import { auditLog } from '@pss/dashboard-reads';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { embeddedSuite } from './testing/embedded-suite';

/** Issue 31 review: who acts comes from the command metadata alone, for the API's commands as for the dashboard's. */
describe('the actor of a command (embedded)', () => {
  const suite = embeddedSuite({ scopes: ['policies:read'] });
  let bus: Bus;
  let readStore: ReadStore;
  let policyId: string;

  beforeAll(async () => {
    bus = suite.service.app.get(BUS);
    readStore = suite.service.app.get(READ_STORE);
    policyId = (await suite.get('/policies')).body.data[0].id;
  });

  const rename = (name: string, options: { actor?: string }) =>
    bus.request(COMMANDS.policyUpdate, { orgId: suite.orgId, id: policyId, input: { name }, actor: 'user:forged@evil.example' }, options);

  it('records the metadata actor, whatever the payload says', async () => {
    await rename('Renamed by the owner', { actor: 'user:owner@shop.example' });

    const { entries } = await auditLog(readStore, suite.orgId, { action: 'policy' }, { limit: 50 });
    const renamed = entries.find((entry) => entry.target.label === 'Renamed by the owner');
    expect(renamed?.actor).toBe('user:owner@shop.example');
    expect(entries.map((entry) => entry.actor)).not.toContain('user:forged@evil.example');
  });

  it('refuses a command whose metadata names nobody, even with an actor in its payload', async () => {
    await expect(rename('Renamed by nobody', {})).rejects.toMatchObject({ code: 'validation_error', details: [expect.objectContaining({ field: 'actor' })] });
  });
});
