import { Inject, Injectable } from '@nestjs/common';
import { ORGANIZATIONS, type OrganizationDocument } from '@pss/contracts';
import { DomainError, isUuid, notFound, validationError } from '@pss/kernel';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import type { Principal } from './principal';

/**
 * Resolves `org_id` (query or JSON body): partners act on a child organization with orgs:manage. Naming any
 * organization, the token's own included, needs the scope (403 without it); the token's own then acts on itself.
 * Another organization that is not a child of the caller's is 404 whether it exists or not, so the answer never
 * reveals another tenant. The query and the body may not name two different organizations (400).
 */
@Injectable()
export class ActingOrganization {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  async resolve(principal: Omit<Principal, 'actingOrgId'>, named: { query: unknown; body: unknown }, accepted: boolean): Promise<string> {
    const requested = orgIdOf(named.query) ?? orgIdOf(named.body);
    if (requested === undefined) return principal.orgId;
    if (!accepted) throw validationError([{ field: 'org_id', message: 'org_id is not accepted by this operation' }]);
    for (const value of [named.query, named.body]) {
      if (orgIdOf(value) !== undefined && !isUuid(value)) throw validationError([{ field: 'org_id', message: 'org_id must be a UUID' }]);
    }
    const orgId = (requested as string).toLowerCase(); // ids are stored in lower case
    const other = orgIdOf(named.body);
    if (other !== undefined && (other as string).toLowerCase() !== orgId) {
      throw validationError([{ field: 'org_id', message: 'org_id in the query and org_id in the body name different organizations' }]);
    }
    if (!principal.scopes.includes('orgs:manage')) {
      throw new DomainError('insufficient_scope', 'Acting on an organization named by org_id requires the orgs:manage scope');
    }
    if (orgId === principal.orgId) return orgId;
    const child = await this.readStore
      .collection<OrganizationDocument>(ORGANIZATIONS)
      .findOne({ _id: orgId, parent_org_id: principal.orgId });
    if (!child) throw notFound('Organization');
    return orgId;
  }
}

/** An `org_id` that is absent, null or empty names no organization. */
const orgIdOf = (value: unknown): unknown => (value === undefined || value === null || value === '' ? undefined : value);
