import { HOST_PREVALENCE, integrityOf, SCRIPTS, type HostPrevalenceDocument, type ScriptDocument, type ScriptReview } from '@pss/contracts';
import type { RecordedEvent } from '@pss/event-store';
import { applyOnce, readModelProjection } from '@pss/projections';
import { isSightingsEvent } from '../ingestion/store-activity.projection';
import { isScriptEvent } from './script.events';

/** `scripts`: the per-store inventory PCI DSS 6.4.3 asks for, with each script's decisions and integrity. */
export class ScriptProjection extends readModelProjection({
  name: 'scripts',
  streamPrefixes: ['script-', 'sightings-'],
  collections: {
    [SCRIPTS]: [
      { key: { org_id: 1, first_seen_at: -1, _id: -1 } },
      { key: { store_id: 1, first_seen_at: -1, _id: -1 } },
      { key: { store_id: 1, status: 1 } },
      // The dashboard's home counts a partner's child organization's scripts awaiting a decision.
      { key: { org_id: 1, status: 1 } },
      { key: { status: 1, expires_at: 1 } },
    ],
    [HOST_PREVALENCE]: [],
  },
  canHandle: (event: RecordedEvent) => isScriptEvent(event) || isSightingsEvent(event),
  async evolve(event, context) {
    const scripts = context.collection<HeldScript>(SCRIPTS);
    switch (event.type) {
      case 'ScriptDetected': {
        const { data } = event;
        const doc: Omit<ScriptDocument, '_id'> = {
          org_id: data.orgId,
          store_id: data.storeId,
          src: data.src,
          type: data.type,
          category: data.category,
          status: data.status,
          integrity_status: integrityOf(data.status, data.hash, null),
          current_hash: data.hash,
          authorized_hash: null,
          sri_hash: data.sriHash,
          hash_source: data.hashSource,
          integrity_attr: data.integrityAttr,
          size_bytes: data.sizeBytes,
          vendor_id: data.vendorId,
          gtm_container: data.gtmContainer,
          authorization_method: null,
          authorized_by: null,
          justification: null,
          policy_id: null,
          policy_version: null,
          prevalence_seen: null,
          reviewed_at: null,
          expires_at: null,
          review_due_at: null,
          first_seen_at: data.detectedAt,
          last_seen_at: data.detectedAt,
          last_verified_at: null,
          last_hash_change_at: null,
          sightings: 1,
          sessions_count: 1,
          host: data.host,
          inline: data.inline,
          reviews: [],
          recommendation: null,
          sensitive_fields_accessed: [],
          sri_refused: false,
          sri_refused_at: null,
        };
        await applyOnce(scripts, data.scriptId, event, { $set: doc }, { upsert: true });
        if (data.host) {
          await context.collection<HostPrevalenceDocument>(HOST_PREVALENCE).updateOne({ _id: data.host }, { $addToSet: { store_ids: data.storeId } }, { upsert: true });
        }
        return;
      }
      case 'ScriptHashChanged': {
        const { data } = event;
        await applyOnce(scripts, data.scriptId, event, {
          $set: {
            current_hash: data.hash,
            authorized_hash: data.authorizedHash,
            sri_hash: data.sriHash,
            hash_source: data.hashSource,
            integrity_attr: data.integrityAttr,
            size_bytes: data.sizeBytes,
            integrity_status: data.integrityStatus,
            src: data.src,
            last_hash_change_at: data.changedAt,
            // Held from an unauthorized change; a match (recorded before issue 29 held them) ends it.
            ...(data.unauthorizedChange ? { _mismatch_held: true } : data.integrityStatus === 'match' ? { _mismatch_held: false } : {}),
          },
          // A sighting like any other, and back to the authorized content, a verified one.
          $max: { last_seen_at: data.changedAt, ...(data.integrityStatus === 'match' ? { last_verified_at: data.changedAt } : {}) },
          $inc: A_SIGHTING,
        });
        return;
      }
      case 'ScriptHashLearned':
        await applyOnce(scripts, event.data.scriptId, event, { $max: { last_seen_at: event.data.seenAt }, $inc: A_SIGHTING });
        return;
      case 'ScriptAuthorized': {
        const { data } = event;
        const script = await scripts.findOne({ _id: data.scriptId });
        await applyOnce(scripts, data.scriptId, event, {
          $set: {
            status: 'authorized',
            authorized_hash: data.authorizedHash,
            integrity_status: integrityOf('authorized', data.authorizedHash, data.authorizedHash, script?.sri_refused),
            ...decisionFields(data, data.authorizedAt),
            expires_at: data.expiresAt,
            review_due_at: data.reviewDueAt,
            recommendation: null,
            _mismatch_held: false,
          },
          $push: { reviews: review('authorize', data, data.authorizedAt) },
        });
        return;
      }
      case 'ScriptBlocked': {
        const { data } = event;
        await applyOnce(scripts, data.scriptId, event, {
          $set: { status: 'blocked', integrity_status: 'blocked', ...decisionFields(data, data.blockedAt), ...NO_EXPIRY, recommendation: null },
          $push: { reviews: review('block', data, data.blockedAt) },
        });
        return;
      }
      case 'ScriptReviewRequested': {
        const { data } = event;
        const script = await scripts.findOne({ _id: data.scriptId });
        await applyOnce(scripts, data.scriptId, event, {
          $set: {
            status: 'needs_review',
            integrity_status: integrityOf('needs_review', script?.current_hash ?? null, null, script?.sri_refused),
            ...decisionFields(data, data.requestedAt),
            ...NO_EXPIRY,
          },
          $push: { reviews: review('needs_review', data, data.requestedAt) },
        });
        return;
      }
      case 'ScriptRecommended':
        await applyOnce(scripts, event.data.scriptId, event, { $set: { recommendation: event.data.recommendation } });
        return;
      case 'ScriptIntegrityRefused': {
        const { data } = event;
        const script = await scripts.findOne({ _id: data.scriptId });
        await applyOnce(scripts, data.scriptId, event, {
          $set: {
            sri_refused: true,
            sri_refused_at: data.refusedAt,
            // What the page pins, beside what is served (current_hash).
            sri_hash: data.refusedIntegrity.split(' ')[0],
            integrity_status: integrityOf(script?.status ?? 'needs_review', script?.current_hash ?? data.hash, script?.authorized_hash ?? null, true),
          },
        });
        return;
      }
      case 'ScriptIntegrityAccepted': {
        const { data } = event;
        const script = await scripts.findOne({ _id: data.scriptId });
        await applyOnce(scripts, data.scriptId, event, {
          $set: {
            sri_refused: false,
            sri_refused_at: null,
            sri_hash: null,
            integrity_status: script?._mismatch_held ? 'mismatch' : integrityOf(script?.status ?? 'needs_review', script?.current_hash ?? null, script?.authorized_hash ?? null),
          },
        });
        return;
      }
      case 'ScriptAuthorizedContentSeen':
        // Not counted here: the sighting is a ScriptHashChanged's, or the gateway's to count (SdkIngestion answers it known).
        await applyOnce(scripts, event.data.scriptId, event, { $max: { last_seen_at: event.data.seenAt } });
        return;
      case 'ScriptIntegrityRestored': {
        const { data } = event;
        const script = await scripts.findOne({ _id: data.scriptId });
        await applyOnce(scripts, data.scriptId, event, {
          $set: { _mismatch_held: false, integrity_status: integrityOf(script?.status ?? 'authorized', data.hash, script?.authorized_hash ?? null, script?.sri_refused) },
          $max: { last_verified_at: data.restoredAt },
        });
        return;
      }
      case 'ScriptSensitiveFieldAccessed':
        await applyOnce(scripts, event.data.scriptId, event, { $addToSet: { sensitive_fields_accessed: event.data.field } });
        return;
      case 'ScriptMarkedSuspicious':
        await applyOnce(scripts, event.data.scriptId, event, { $set: { status: 'suspicious' } });
        return;
      case 'SightingsFlushed':
        for (const sighting of event.data.scripts) {
          const script = await scripts.findOne({ _id: sighting.scriptId });
          // An authorized script seen with its authorized content is verified as of that sighting.
          const verified = script?.integrity_status === 'match' ? { last_verified_at: sighting.lastSeenAt } : {};
          await applyOnce(scripts, sighting.scriptId, event, {
            $max: { last_seen_at: sighting.lastSeenAt, ...verified },
            $inc: { sightings: sighting.sightings, sessions_count: sighting.sessions },
          });
        }
        return;
    }
  },
}) {}

const NO_EXPIRY = { expires_at: null, review_due_at: null };

/**
 * The read model's own mark of a held mismatch (docs/decisions.md, issue 29), left out of the API like every
 * `_` field: a refusal that ends must not turn it into a match, and ingestion must not settle its sightings.
 */
export type HeldScript = ScriptDocument & { _mismatch_held?: boolean };
/** A sighting recorded as an event of the script's own (new content) rather than counted in a sightings window. */
const A_SIGHTING = { sightings: 1, sessions_count: 1 };

type Decision = {
  method: ScriptReview['method'];
  by: string;
  justification: string | null;
  policyId: string | null;
  policyVersion: number | null;
  prevalenceSeen?: number | null;
};

const decisionFields = (decision: Decision, at: string) => ({
  authorization_method: decision.method,
  authorized_by: decision.by,
  justification: decision.justification,
  policy_id: decision.policyId,
  policy_version: decision.policyVersion,
  // Events recorded before issue 29 do not carry it.
  prevalence_seen: decision.prevalenceSeen ?? null,
  reviewed_at: at,
});

const review = (action: ScriptReview['action'], decision: Decision, at: string): ScriptReview => ({
  action,
  method: decision.method,
  by: decision.by,
  justification: decision.justification,
  at,
});
