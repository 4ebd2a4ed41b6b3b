import { timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  API_TOKENS,
  COMMANDS,
  LAST_USE_RESOLUTION_MS,
  TOKEN_PATTERN,
  tokenMatchesHash,
  tokenPrefix,
  tokenStatus,
  type ApiTokenDocument,
  type Scope,
} from '@pss/contracts';
import { BUS, type Bus } from '@pss/bus';
import { CLOCK, type Clock } from '@pss/kernel';
import { READ_STORE, type Frozen, type ReadStore } from '@pss/read-store';
import { bearerToken } from './bearer';
import { unauthorized } from './unauthorized';
import type { Principal } from './principal';

/**
 * Resolves a bearer token to its organization, from inventory's `api_tokens` read model (hash compared in
 * constant time), and reports its use to inventory at most once a minute. The record is read on every request, so
 * a revocation or an expiry refuses the very next one.
 */
@Injectable()
export class TokenAuthenticator {
  private readonly logger = new Logger('Auth');
  private readonly lastReported = new Map<string, number>();
  /** The token that passed the hash check against each `api_tokens` version (see `matches`). */
  private readonly checked = new WeakMap<Frozen<ApiTokenDocument>, Buffer>();

  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(BUS) private readonly bus: Bus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async authenticate(authorization: string | string[] | undefined): Promise<Omit<Principal, 'actingOrgId'>> {
    const token = bearerToken(authorization, TOKEN_PATTERN);
    if (!token) throw unauthorized('Missing or malformed bearer token');
    const record = await this.readStore.collection<ApiTokenDocument>(API_TOKENS).findOneFrozen({ prefix: tokenPrefix(token) });
    if (!record || !this.matches(token, record)) throw unauthorized('Invalid token');
    const now = this.clock.now();
    const status = tokenStatus(record, now);
    if (status === 'Revoked') throw unauthorized('Invalid token');
    if (status === 'Expired') throw unauthorized('Token expired');
    const actor = `api:${record.prefix}`;
    this.reportUse(record._id, actor, now.getTime());
    return { tokenId: record._id, orgId: record.org_id, prefix: record.prefix, scopes: record.scopes as readonly Scope[], actor };
  }

  /**
   * Whether the token hashes to the record's hash. A frozen record never changes, so once a token has passed the
   * SHA-256 check against one, the same token passes again: later requests compare it, in constant time, with the
   * token that passed instead of hashing it again (the hash was about 3.5 % of a polled list GET). Only the token
   * check is kept, and only as long as that version of the record is the current one (the memory read store hands
   * out its stored versions; a new version, the next use report's included, starts over): revocation and expiry
   * are read from the record on every request.
   */
  private matches(token: string, record: Frozen<ApiTokenDocument>): boolean {
    const presented = Buffer.from(token);
    const passed = this.checked.get(record);
    if (passed) return passed.length === presented.length && timingSafeEqual(passed, presented);
    if (!tokenMatchesHash(token, record.hash)) return false;
    this.checked.set(record, presented);
    return true;
  }

  private reportUse(tokenId: string, actor: string, now: number): void {
    const last = this.lastReported.get(tokenId);
    if (last !== undefined && now - last < LAST_USE_RESOLUTION_MS) return;
    this.lastReported.set(tokenId, now);
    this.bus
      .request(COMMANDS.tokenRecordUse, { tokenId }, { actor })
      .catch((error: Error) => this.logger.warn({ message: 'token use not recorded', error: error.message }));
  }
}
