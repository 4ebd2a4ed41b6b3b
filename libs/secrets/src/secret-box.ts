import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const ALGORITHM = 'aes-256-gcm';
const VERSION = 'v1';

/**
 * Secrets the service must keep (webhook signing secrets, responses replayed for an Idempotency-Key that carry
 * one) are stored sealed: AES-256-GCM under the service's secret key, bound to a context such as the channel id
 * (the additional authenticated data, so a sealed value copied elsewhere does not open). Sealed form:
 * `v1.<key id>.<iv>.<tag>.<ciphertext>`, base64url parts; the key id (start of the key's SHA-256) tells a value
 * sealed under another key from a damaged one.
 */
export class SecretBox {
  private loaded?: { key: Buffer; id: string };

  /** `key` is asked for on first use only: a process that never seals or opens never creates a key file. */
  constructor(private readonly key: () => Buffer) {}

  seal(secret: string, context: string): string {
    const { key, id } = this.current();
    const iv = randomBytes(12);
    const cipher = createCipheriv(ALGORITHM, key, iv).setAAD(Buffer.from(context));
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return [VERSION, id, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.');
  }

  open(sealed: string, context: string): string {
    const { key, id } = this.current();
    const [version, keyId, iv, tag, ciphertext] = sealed.split('.');
    if (version !== VERSION) throw new Error('the value is sealed in an unknown form');
    if (keyId !== id) throw new Error('the value was sealed with another SECRET_KEY');
    const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(iv, 'base64url')).setAAD(Buffer.from(context));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }

  private current(): { key: Buffer; id: string } {
    if (!this.loaded) {
      const key = this.key();
      this.loaded = { key, id: createHash('sha256').update(key).digest('hex').slice(0, 8) };
    }
    return this.loaded;
  }
}
