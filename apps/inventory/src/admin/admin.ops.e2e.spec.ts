import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { EmbeddedHarness } from '../../../embedded/src/testing/embedded-harness';

describe('admin ops (embedded)', () => {
  let service: EmbeddedHarness;
  beforeAll(async () => {
    service = await EmbeddedHarness.start();
  });
  afterAll(() => service.close());

  it('org list: every organization, oldest first, or the children of --parent', async () => {
    const partner = await service.createOrganization({ name: 'Partner' });
    const child = await service.createOrganization({ name: 'Child Shop', parent: partner.id });
    const other = await service.createOrganization({ name: 'Other' });

    const all = await service.ops('org.list');
    expect(all.data.map((org: { id: string }) => org.id)).toEqual([partner.id, child.id, other.id]);
    expect(all.data[1]).toEqual(expect.objectContaining({ id: child.id, name: 'Child Shop', parent_org_id: partner.id, plan: 'growth' }));
    expect(all.data[1]).not.toHaveProperty('_id');

    expect((await service.ops('org.list', { parent: partner.id })).data.map((org: { id: string }) => org.id)).toEqual([child.id]);
    expect((await service.ops('org.list', { parent: other.id })).data).toEqual([]);
  });

  it('token create with an unknown scope says which scopes exist', async () => {
    const org = await service.createOrganization();
    await expect(service.ops('token.create', { org: org.id, name: 'ci', scopes: 'stores:read,stores:admin' })).rejects.toMatchObject({
      code: 'validation_error',
      details: [{ field: 'scopes', message: expect.stringMatching(/^unknown scopes: stores:admin; valid scopes: stores:read, stores:write, .*orgs:manage, usage:read$/) }],
    });
  });
});

describe('admin CLI (a process, embedded, no service running)', () => {
  const run = promisify(execFile);
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'pss-admin-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  const admin = (...args: string[]) =>
    run(process.execPath, ['-r', './tools/register.js', 'tools/cli/admin.ts', ...args], { env: { ...process.env, DATA_DIR: dataDir, MODE: 'embedded' } }).then(
      ({ stdout }) => ({ code: 0, out: JSON.parse(stdout) }),
      (error: { code: number; stdout: string }) => ({ code: error.code, out: JSON.parse(error.stdout) }),
    );

  it('lists the organizations it created, and refuses an unknown scope listing the valid ones', async () => {
    const created = await admin('org', 'create', '--name', 'Acme');
    expect(created.code).toBe(0);
    const listed = await admin('org', 'list');
    expect(listed).toEqual({ code: 0, out: { data: [expect.objectContaining({ id: created.out.id, name: 'Acme' })] } });
    const refused = await admin('token', 'create', '--org', created.out.id, '--name', 'ci', '--scopes', 'stores:admin');
    expect(refused.code).toBe(1);
    expect(refused.out.error.details[0].message).toContain('valid scopes: stores:read, stores:write');
  }, 60_000);
});
