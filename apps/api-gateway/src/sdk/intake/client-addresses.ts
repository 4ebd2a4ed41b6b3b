import { createHmac, hkdfSync } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { SERVICE_CONFIG, type ServiceConfig } from '@pss/config';
import { loadSecretKey } from '@pss/secrets';

/**
 * Client addresses as the service keeps them: a keyed hash, so sightings can be counted by distinct address
 * (docs/decisions.md, issue 29) without any address being stored or sent on. The key is derived from SECRET_KEY
 * (HKDF, label "sdk-client-addresses"): every replica hashes an address alike, and nobody without the key can
 * try the 2^32 IPv4 addresses against a hash.
 */
@Injectable()
export class ClientAddresses {
  private key?: Buffer;

  constructor(@Inject(SERVICE_CONFIG) private readonly config: ServiceConfig) {}

  of(address: string): string {
    return hashedAddress(this.keyOf(), address);
  }

  private keyOf(): Buffer {
    this.key ??= clientAddressKey(loadSecretKey(process.env, this.config.dataDir));
    return this.key;
  }
}

export const clientAddressKey = (secretKey: Buffer): Buffer => Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), 'pss sdk-client-addresses', 32));

/** 96 bits: collisions among a store's clients are negligible, and the hash stays short in events. */
export const hashedAddress = (key: Buffer, address: string): string => createHmac('sha256', key).update(address).digest('base64url').slice(0, 16);
