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
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { bearerToken } from './bearer';
import { unauthorized } from './unauthorized';
import type { Principal } from './principal';

/**
 * Resolves a bearer token to its organization, from inventory's `api_tokens` read model (hash compared in
 * constant time), and reports its use to inventory at most once a minute.
 */
@Injectable()
export class TokenAuthenticator {
  private readonly logger = new Logger('Auth');
  private readonly lastReported = new Map<string, number>();

  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(BUS) private readonly bus: Bus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async authenticate(authorization: string | string[] | undefined): Promise<Omit<Principal, 'actingOrgId'>> {
    const token = bearerToken(authorization, TOKEN_PATTERN);
    if (!token) throw unauthorized('Missing or malformed bearer token');
    const record = await this.readStore.collection<ApiTokenDocument>(API_TOKENS).findOne({ prefix: tokenPrefix(token) });
    if (!record || !tokenMatchesHash(token, record.hash)) throw unauthorized('Invalid token');
    const now = this.clock.now();
    const status = tokenStatus(record, now);
    if (status === 'Revoked') throw unauthorized('Invalid token');
    if (status === 'Expired') throw unauthorized('Token expired');
    const actor = `api:${record.prefix}`;
    this.reportUse(record._id, actor, now.getTime());
    return { tokenId: record._id, orgId: record.org_id, prefix: record.prefix, scopes: record.scopes as Scope[], actor };
  }

  private reportUse(tokenId: string, actor: string, now: number): void {
    const last = this.lastReported.get(tokenId);
    if (last !== undefined && now - last < LAST_USE_RESOLUTION_MS) return;
    this.lastReported.set(tokenId, now);
    this.bus
      .request(COMMANDS.tokenRecordUse, { tokenId, actor })
      .catch((error: Error) => this.logger.warn({ message: 'token use not recorded', error: error.message }));
  }
}
