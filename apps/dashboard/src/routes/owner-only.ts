import { allows, REQUIRES_ORGANIZATION_OWNER } from '../access/roles';
import type { DashboardAnswer, DashboardRequest } from '../http/dashboard-route';
import type { MessageKey } from '../i18n/catalogue';
import { errorPage } from '../pages/layout';

/** Whether the signed-in person is the organization owner. */
export const isOrganizationOwner = (request: DashboardRequest): boolean => allows(request.signedIn!.member.role, REQUIRES_ORGANIZATION_OWNER);

/**
 * The guard of what only the organization owner may do on routes every member reaches, so that the others read the
 * page's own refusal (the spec words the tokens' one) instead of the generic one: 403 with it, undefined for the owner.
 */
export const organizationOwnerOnly = (request: DashboardRequest, refusal: MessageKey): DashboardAnswer | undefined =>
  isOrganizationOwner(request) ? undefined : errorPage(request, 403, request.t(refusal));
