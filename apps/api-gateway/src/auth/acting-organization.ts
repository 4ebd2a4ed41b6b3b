import { Inject, Injectable } from '@nestjs/common';
import { ORGANIZATIONS, type OrganizationDocument } from '@pss/contracts';
import { DomainError, isUuid, notFound, validationError } from '@pss/kernel';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import type { Principal } from './principal';

/**
 * Resolves `org_id` (query or JSON body): partners act on a child organization with orgs:manage. A missing
 * scope is 403; an organization that is not a child of the caller's is 404 whether it exists or not, so the
 * answer never reveals another tenant.
 */
@Injectable()
export class ActingOrganization {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  async resolve(principal: Omit<Principal, 'actingOrgId'>, requested: unknown, accepted: boolean): Promise<string> {
    if (requested === undefined || requested === null || requested === '') return principal.orgId;
    if (!accepted) throw validationError([{ field: 'org_id', message: 'org_id is not accepted by this operation' }]);
    if (typeof requested !== 'string' || !isUuid(requested)) {
      throw validationError([{ field: 'org_id', message: 'org_id must be a UUID' }]);
    }
    if (requested === principal.orgId) return requested;
    if (!principal.scopes.includes('orgs:manage')) {
      throw new DomainError('insufficient_scope', 'Acting on another organization (org_id) requires the orgs:manage scope');
    }
    const child = await this.readStore
      .collection<OrganizationDocument>(ORGANIZATIONS)
      .findOne({ _id: requested, parent_org_id: principal.orgId });
    if (!child) throw notFound('Organization');
    return requested;
  }
}
