import type { BreakerSettings } from './endpoint-breakers';
import type { FairShares } from './fair-queue';

/**
 * How one notifier process shares its attempts: 32 at once, at most a quarter for one organization, 10 per
 * endpoint (scheme://host:port) of which one organization holds at most half. Beyond 1,000 waiting, an
 * organization's attempts wait for the retry cycle instead.
 */
export const DELIVERY_SHARES: FairShares = { total: 32, perOrganization: 8, perEndpoint: 10, perOrganizationAtEndpoint: 5, waitingPerOrganization: 1_000 };

/** POST /webhooks/{id}/test has a line of its own: a test never waits behind deliveries, nor a tenant's tests behind another's. */
export const TEST_SHARES: FairShares = { total: 16, perOrganization: 2, perEndpoint: 4, perOrganizationAtEndpoint: 2, waitingPerOrganization: 10 };

/**
 * Three timeouts in a row park an organization's endpoint for a minute, then one attempt probes it. A parked
 * delivery is not attempted and keeps its attempts: the next retry cycle (at most 5 minutes on) takes it up.
 */
export const ENDPOINT_BREAKER: BreakerSettings = { timeoutsToOpen: 3, halfOpenAfterMs: 60_000 };
