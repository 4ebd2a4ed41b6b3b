/** `org_id` in a body only chose the organization (the guard resolved it); it is not part of the command. */
export function withoutOrgId<T extends { org_id?: string }>(body: T): Omit<T, 'org_id'> {
  const { org_id: _orgId, ...input } = body;
  return input;
}
