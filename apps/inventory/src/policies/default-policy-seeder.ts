import { Inject, Injectable } from '@nestjs/common';
import { SERVICE_CONFIG, type ServiceConfig } from '@pss/config';
import { canHandle, EVENT_STORE, WrongExpectedRevisionError, type EventMetadata, type EventStore, type RecordedEvent } from '@pss/event-store';
import { ProjectionRunner, ReadModelProjection, type Projection } from '@pss/projections';
import type { OrganizationEvent } from '../organizations/organization.decider';
import { DEFAULT_POLICIES, defaultPolicyId } from './default-policies';
import { policyDecider, policyStream } from './policy.decider';

type Written = { stream: string; type: string; position: number };

const isOrganizationCreated = canHandle<Extract<OrganizationEvent, { type: 'OrganizationCreated' }>>({
  OrganizationCreated: true,
});

/**
 * Seeds the default policies of every organization, however it was created (API or admin CLI), as events on
 * their own `policy-` streams. It runs as a projection of organization streams, so:
 * - an organization's creation answers only once this has run (read-your-writes waits for every projection of
 *   `org-` streams), and this in turn waits until the `policies` read model has the defaults;
 * - it catches up after a crash, and organizations created before it existed get their defaults too.
 * Replays change nothing: the ids are derived from the organization, and each stream is appended only if it
 * does not exist yet.
 */
@ReadModelProjection()
@Injectable()
export class DefaultPolicySeeder implements Projection {
  readonly name = 'default_policies';
  readonly filter = { streamPrefixes: ['org-'], eventTypes: ['OrganizationCreated'] };
  /** It writes events, not read models. */
  readonly collections: Projection['collections'] = {};

  constructor(
    @Inject(EVENT_STORE) private readonly eventStore: EventStore,
    private readonly projections: ProjectionRunner,
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
  ) {}

  async handle(recorded: RecordedEvent): Promise<void> {
    if (!isOrganizationCreated(recorded)) return;
    const { orgId, createdAt } = recorded.data;
    const metadata: EventMetadata = {
      actor: 'system',
      orgId,
      causationId: recorded.id,
      ...(recorded.metadata.correlationId ? { correlationId: recorded.metadata.correlationId } : {}),
    };
    const written: Written[] = [];
    for (const { key, definition } of DEFAULT_POLICIES) {
      const policyId = defaultPolicyId(orgId, key);
      // Dated like the organization, so a policy seeded late (on a replay) reads as part of its creation.
      const events = policyDecider.decide(
        { type: 'CreatePolicy', policyId, orgId, storeId: null, definition, isDefault: true, at: new Date(createdAt) },
        policyDecider.initialState(),
      );
      const stream = policyStream(policyId);
      try {
        const { position } = await this.eventStore.append(
          stream,
          events.map(({ type, data }) => ({ type, data, metadata })),
          { expectedRevision: 'no_stream' },
        );
        written.push(...events.map(({ type }) => ({ stream, type, position })));
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
      }
    }
    if (written.length === 0) return;
    await this.projections.waitFor(Math.max(...written.map((w) => w.position)), written, this.config.readYourWritesTimeoutMs);
  }
}
