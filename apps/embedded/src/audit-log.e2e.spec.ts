import { BUS, type Bus } from '@pss/bus';
import { COMMANDS, type IssuedToken } from '@pss/contracts';
import { auditLog, auditLogCsv, type AuditLogEntry } from '@pss/dashboard-reads';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { sri } from '@pss/testkit';
import { embeddedSuite } from './testing/embedded-suite';

const SCOPES = ['stores:write', 'scripts:read', 'scripts:review', 'policies:read', 'policies:write'];
const OWNER = 'user:owner@shop.example';

/** The audit log the dashboard shows: changes made through the dashboard's commands and the API, each with its actor. */
describe('audit log (embedded, bus commands and HTTP API)', () => {
  const suite = embeddedSuite({ scopes: SCOPES });
  let bus: Bus;
  let readStore: ReadStore;
  let token: IssuedToken;
  let scriptId: string;
  let policyId: string;
  const since = new Date().toISOString();

  beforeAll(async () => {
    bus = suite.service.app.get(BUS);
    readStore = suite.service.app.get(READ_STORE);
    // As a person through the dashboard's commands: a token issued, then revoked.
    token = await bus.request<IssuedToken>(COMMANDS.tokenIssue, { orgId: suite.orgId, name: 'Auditor', scopes: ['read-only'], validityDays: 30 }, { actor: OWNER });
    await bus.request(COMMANDS.tokenRevoke, { orgId: suite.orgId, prefix: token.prefix }, { actor: OWNER });
    // As the suite's API token: a script authorized with its justification, and a policy changed.
    const store = await suite.newStore();
    await suite.service.reportSdk(store.sdk_key, [{ kind: 'script', src: 'https://widgets.psp-audit.example/pay.js', hash: sri('pay') }]);
    const scripts = (await suite.get(`/scripts?store_id=${store.id}`)).body.data as Array<{ id: string; src: string }>;
    scriptId = scripts.find((script) => script.src.includes('psp-audit'))!.id;
    expect((await suite.call('POST', `/scripts/${scriptId}/authorize`, { justification: 'Payment widget of our PSP, contract 42' })).status).toBe(200);
    policyId = (await suite.get('/policies')).body.data[0].id;
    expect((await suite.call('PATCH', `/policies/${policyId}`, { name: 'Renamed by the audit test' })).status).toBe(200);
  });

  const all = async (orgId = suite.orgId): Promise<AuditLogEntry[]> => (await auditLog(readStore, orgId, {}, { limit: 200 })).entries;

  it('lists a token created and revoked by the person who did it', async () => {
    const entries = await all();
    const target = { type: 'token', id: token.id, label: 'Auditor' };
    expect(entries).toContainEqual(expect.objectContaining({ actor: OWNER, action: 'token.created', target, details: expect.objectContaining({ prefix: token.prefix }) }));
    expect(entries).toContainEqual(expect.objectContaining({ actor: OWNER, action: 'token.revoked', target }));
  });

  it('lists a script authorized through the API with its justification, and a policy change, by the token', async () => {
    const apiActor = `api:${suite.prefix}`;
    const entries = await all();
    expect(entries).toContainEqual(
      expect.objectContaining({
        actor: apiActor,
        action: 'script.authorized',
        target: { type: 'script', id: scriptId, label: 'https://widgets.psp-audit.example/pay.js' },
        details: expect.objectContaining({ method: 'api', justification: 'Payment widget of our PSP, contract 42' }),
      }),
    );
    expect(entries).toContainEqual(
      expect.objectContaining({ actor: apiActor, action: 'policy.updated', target: { type: 'policy', id: policyId, label: 'Renamed by the audit test' }, details: expect.objectContaining({ changed: ['name'] }) }),
    );
  });

  it('filters by actor, action (or target type) and time, newest first', async () => {
    const byOwner = (await auditLog(readStore, suite.orgId, { actor: OWNER })).entries;
    expect(byOwner.map((entry) => entry.action)).toEqual(['token.revoked', 'token.created']);
    expect((await auditLog(readStore, suite.orgId, { action: 'script.authorized' })).entries.map((entry) => entry.target.id)).toEqual([scriptId]);
    // The suite's own token, issued by the operator's CLI, is a token too.
    expect((await auditLog(readStore, suite.orgId, { action: 'token' })).entries.map((entry) => [entry.actor, entry.action])).toEqual([
      [OWNER, 'token.revoked'],
      [OWNER, 'token.created'],
      ['admin-cli', 'token.created'],
    ]);
    expect((await auditLog(readStore, suite.orgId, { from: since })).entries.length).toBe((await all()).length);
    expect((await auditLog(readStore, suite.orgId, { to: since })).entries).toEqual([]);
    await expect(auditLog(readStore, suite.orgId, { from: 'yesterday' })).rejects.toMatchObject({ code: 'validation_error', details: [expect.objectContaining({ field: 'from' })] });
  });

  it('pages with a cursor, without gaps or repeats', async () => {
    const everything = await all();
    const paged: AuditLogEntry[] = [];
    let cursor: string | undefined;
    do {
      const page = await auditLog(readStore, suite.orgId, {}, { cursor, limit: 2 });
      paged.push(...page.entries);
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(paged).toEqual(everything);
    expect(everything.map((entry) => entry.time)).toEqual([...everything.map((entry) => entry.time)].sort().reverse());
    await expect(auditLog(readStore, suite.orgId, {}, { cursor: 'not-a-cursor' })).rejects.toMatchObject({ code: 'validation_error' });
  });

  it('exports the filtered log as CSV with its justification', async () => {
    let csv = '';
    for await (const chunk of auditLogCsv(readStore, suite.orgId, { action: 'script' })) csv += chunk;
    const [header, ...rows] = csv.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(header).toBe('time_utc,actor,action,target_type,target_id,target_label,details');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain(`api:${suite.prefix},script.authorized,script,${scriptId},https://widgets.psp-audit.example/pay.js,`);
    expect(rows[0]).toContain('Payment widget of our PSP');
  });

  it("shows another organization none of this organization's entries", async () => {
    const other = await suite.service.createOrganization({ name: 'Other Shop' });
    const theirs = await all(other.id);
    expect(theirs.map((entry) => entry.target.id)).not.toEqual(expect.arrayContaining([token.id]));
    expect(theirs.filter((entry) => [token.id, scriptId, policyId].includes(entry.target.id))).toEqual([]);
  });
});
