/**
 * Webhook signing secrets cross the bus sealed, never in plain text: the gateway seals a secret the client sent
 * before the command leaves, the notifier opens it, and seals the secret it answers with for the gateway to open.
 * Command and reply topics keep their messages for days, so whoever reads Kafka does not read the secrets.
 * The context binds a sealed secret to the organization whose command carries it: copied into another
 * organization's command, it does not open.
 */
export const webhookSecretInTransit = (orgId: string): string => `bus:webhook-secret:${orgId}`;
