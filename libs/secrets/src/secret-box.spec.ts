import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SecretBox } from './secret-box';
import { loadSecretKey, secretKeyFile } from './secret-key';

describe('sealed secrets', () => {
  let dataDir: string;
  beforeEach(() => (dataDir = mkdtempSync(join(tmpdir(), 'pss-secrets-'))));
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  const secret = 'whsec_0123456789abcdef0123456789abcdef';

  it('opens what it sealed for the same channel only, and never shows the secret sealed', () => {
    const box = new SecretBox(() => loadSecretKey({}, dataDir));
    const sealed = box.seal(secret, 'channel-1');
    expect(sealed).toMatch(/^v1\.[0-9a-f]{8}\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain(secret);
    expect(box.seal(secret, 'channel-1')).not.toBe(sealed);
    expect(box.open(sealed, 'channel-1')).toBe(secret);
    expect(() => box.open(sealed, 'channel-2')).toThrow();
  });

  it('creates the key file once, readable by its owner only, and keeps using it', () => {
    const first = loadSecretKey({}, dataDir);
    expect(statSync(secretKeyFile(dataDir)).mode & 0o777).toBe(0o600);
    expect(readFileSync(secretKeyFile(dataDir), 'utf8').trim()).toBe(first.toString('hex'));
    expect(loadSecretKey({}, dataDir)).toEqual(first);
  });

  it('keeps the key in SECRET_KEY_FILE when set, so services with data directories of their own share one key', async () => {
    const shared = join(dataDir, 'shared', 'secret.key');
    const gateway = loadSecretKey({ SECRET_KEY_FILE: shared }, join(dataDir, 'gateway'));

    expect(loadSecretKey({ SECRET_KEY_FILE: shared }, join(dataDir, 'notifier'))).toEqual(gateway);
    expect(readFileSync(shared, 'utf8').trim()).toBe(gateway.toString('hex'));
  });

  it('takes SECRET_KEY when set, creates no file then, and tells a secret sealed under another key', () => {
    const key = 'ab'.repeat(32);
    const box = new SecretBox(() => loadSecretKey({ SECRET_KEY: key }, dataDir));
    const sealed = box.seal(secret, 'c1');
    expect(() => statSync(secretKeyFile(dataDir))).toThrow();
    const other = new SecretBox(() => loadSecretKey({ SECRET_KEY: 'cd'.repeat(32) }, dataDir));
    expect(() => other.open(sealed, 'c1')).toThrow('the value was sealed with another SECRET_KEY');
    expect(() => loadSecretKey({ SECRET_KEY: 'short' }, dataDir)).toThrow('SECRET_KEY must be 64 hexadecimal characters (32 bytes)');
  });
});
