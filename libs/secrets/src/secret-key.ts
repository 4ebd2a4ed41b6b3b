import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const HEX_KEY = /^[0-9a-f]{64}$/i;

/** Where the key lives when SECRET_KEY is not set: SECRET_KEY_FILE, else `secret.key` in the data directory. */
export const secretKeyFile = (dataDir: string, env: NodeJS.ProcessEnv = {}): string => env.SECRET_KEY_FILE || join(dataDir, 'secret.key');

/**
 * The 32-byte key secrets are sealed with: SECRET_KEY (64 hex characters) when set, else the key file
 * (SECRET_KEY_FILE, or in the data directory), created with mode 0600 by the first process that needs it. Every
 * process that seals or opens secrets must have the same key: in distributed mode set SECRET_KEY on every service,
 * or point SECRET_KEY_FILE of every service at one shared file (docker-compose.yml shares a volume).
 */
export function loadSecretKey(env: NodeJS.ProcessEnv, dataDir: string): Buffer {
  if (env.SECRET_KEY) {
    if (!HEX_KEY.test(env.SECRET_KEY)) throw new Error('SECRET_KEY must be 64 hexadecimal characters (32 bytes)');
    return Buffer.from(env.SECRET_KEY, 'hex');
  }
  const file = secretKeyFile(dataDir, env);
  return readKeyFile(file) ?? createKeyFile(file);
}

function readKeyFile(file: string): Buffer | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (!HEX_KEY.test(text)) throw new Error(`${file} must hold 64 hexadecimal characters (32 bytes)`);
  return Buffer.from(text, 'hex');
}

/** Written aside and linked into place, so two processes starting at once agree on one key and none reads half a file. */
function createKeyFile(file: string): Buffer {
  mkdirSync(join(file, '..'), { recursive: true });
  const aside = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(aside, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(aside, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(aside, { force: true });
  }
  return readKeyFile(file)!;
}
