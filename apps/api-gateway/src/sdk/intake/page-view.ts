import type { Observation } from '@pss/contracts';

/**
 * Whether a batch looks like a page view (docs/decisions.md, issue 29): a session's batch (the envelope always
 * has a session id) with at least one script observation. The key is public, so a batch proves nothing; this
 * only keeps heartbeats and lone signals, which cost nothing to forge, from passing for monitoring.
 */
export const isPageView = (batch: { observations: readonly Observation[] }): boolean => batch.observations.some((observation) => observation.kind === 'script');
