/**
 * What the access log says about a request beyond method, route and status: the organization it acted on, once
 * authentication knows it. Kept beside the raw request (not on it), so no framework type is extended.
 */
const organizations = new WeakMap<object, string>();

export const noteOrganization = (request: { raw: object }, orgId: string): void => {
  organizations.set(request.raw, orgId);
};

export const notedOrganization = (request: { raw: object }): string | null => organizations.get(request.raw) ?? null;
