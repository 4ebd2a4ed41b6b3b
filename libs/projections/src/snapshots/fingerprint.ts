import { createHash } from 'node:crypto';
import type { Projection } from '../projection';

/**
 * What a snapshot of a projection's read model depends on: its name, declared version, filter, collections with
 * their indexes, and the source of its class (handlers included). Any change, even a fix in a handler nobody
 * thought to version, makes the old snapshot of that read model unusable: it is rebuilt from events instead.
 */
export function projectionFingerprint(projection: Projection): string {
  const source = [projection.name, projection.version ?? 1, projection.filter, projection.collections, projection.constructor.toString()];
  return createHash('sha256').update(JSON.stringify(source)).digest('hex');
}
