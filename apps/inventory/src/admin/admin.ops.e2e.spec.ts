import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { embeddedSuite } from '@pss/embedded/src/testing/embedded-suite';

describe('admin ops (embedded)', () => {
  const suite = embeddedSuite();

  it('org list: every organization, oldest first, or the children of --parent', async () => {
    const partner = await suite.service.createOrganization({ name: 'Partner' });
    const child = await suite.service.createOrganization({ name: 'Child Shop', parent: partner.id });
    const other = await suite.service.createOrganization({ name: 'Other' });

    const all = await suite.service.ops('org.list');
    expect(all.data.map((org: { id: string }) => org.id)).toEqual([partner.id, child.id, other.id]);
    expect(all.data[1]).toEqual(expect.objectContaining({ id: child.id, name: 'Child Shop', parent_org_id: partner.id, plan: 'growth' }));
    expect(all.data[1]).not.toHaveProperty('_id');

    expect((await suite.service.ops('org.list', { parent: partner.id })).data.map((org: { id: string }) => org.id)).toEqual([child.id]);
    expect((await suite.service.ops('org.list', { parent: other.id })).data).toEqual([]);
  });

  it('token create with an unknown scope says which scopes exist', async () => {
    const org = await suite.service.createOrganization();
    await expect(suite.service.ops('token.create', { org: org.id, name: 'ci', scopes: 'stores:read,stores:admin' })).rejects.toMatchObject({
      code: 'validation_error',
      details: [{ field: 'scopes', message: expect.stringMatching(/^unknown scopes: stores:admin; valid scopes: stores:read, stores:write, .*orgs:manage, usage:read \(or read-only\)$/) }],
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

  const cli = (...args: string[]) =>
    run(process.execPath, ['-r', './tools/register.js', 'tools/cli/admin.ts', ...args], { env: { ...process.env, DATA_DIR: dataDir, MODE: 'embedded' } }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
    );
  /** With the service stopped, the data directory is named: the CLI boots the service's code on it. */
  const admin = (...args: string[]) => cli(...args, '--data-dir', dataDir).then(({ code, stdout }) => ({ code, out: JSON.parse(stdout) }));

  it('refuses, on one stderr line naming the socket it tried, when no service answers and no --data-dir is given', async () => {
    const refused = await cli('org', 'create', '--name', 'Acme');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(
      `admin: no service answers on ${join(dataDir, 'ops.sock')}: start it (npm start) and give this command the DATA_DIR or ` +
        'OPS_SOCKET the service has, or pass --data-dir DIR to act on the data of a stopped service\n',
    );
    expect(existsSync(join(dataDir, 'events.sqlite'))).toBe(false);

    const mistyped = await cli('org', 'list', '--data-dir', join(dataDir, 'nowhere'));
    expect(mistyped).toMatchObject({ code: 1, stdout: '', stderr: `admin: --data-dir ${join(dataDir, 'nowhere')}: no such directory\n` });
  }, 60_000);

  it('lists the organizations it created, and refuses an unknown scope listing the valid ones', async () => {
    const created = await admin('org', 'create', '--name', 'Acme');
    expect(created.code).toBe(0);
    const listed = await admin('org', 'list');
    expect(listed).toEqual({ code: 0, out: { data: [expect.objectContaining({ id: created.out.id, name: 'Acme' })] } });
    const refused = await admin('token', 'create', '--org', created.out.id, '--name', 'ci', '--scopes', 'stores:admin');
    expect(refused.code).toBe(1);
    expect(refused.out.error.details[0].message).toContain('valid scopes: stores:read, stores:write');
  }, 60_000);

  it('refuses a grandchild with the API\'s nesting_limit, however the child\'s id is written, and a --parent with no id', async () => {
    const partner = await admin('org', 'create', '--name', 'Partner');
    const child = await admin('org', 'create', '--name', 'Child', '--parent', partner.out.id);
    // The API reads ids in any case (its path ids, org_id): an operator copying an id in capitals names the same child.
    const grandchild = await admin('org', 'create', '--name', 'Grandchild', '--parent', ` ${child.out.id.toUpperCase()}`);
    expect(grandchild).toEqual({
      code: 1,
      out: { error: { code: 'nesting_limit', message: 'Child organizations cannot create organizations: only one level of nesting is allowed' } },
    });
    // A bare --parent made a top-level organization.
    const bare = await admin('org', 'create', '--name', 'Orphan', '--parent');
    expect(bare).toEqual({
      code: 1,
      out: { error: { code: 'validation_error', message: 'Request validation failed', details: [{ field: 'parent', message: '--parent must be an organization id (a UUID)' }] } },
    });
    expect((await admin('org', 'list', '--parent', partner.out.id.toUpperCase())).out.data.map((org: { name: string }) => org.name)).toEqual(['Child']);
  }, 90_000);
});
