import { DomainError } from '@pss/kernel';
import { awaitSources, FACTS_BEHIND_RETRY_AFTER_SECONDS, waitEnd, type SourcePositions } from './facts-catch-up';

/** Sources whose published positions are read from `published`, changed by the test as time goes by. */
const sources = (committed: number, published: Record<string, number>): SourcePositions => ({
  committed: async () => committed,
  published: async (source) => published[source] ?? 0,
});

describe('waiting for the facts committed before a report', () => {
  it('goes on at once when inventory and alerts have published what was committed', async () => {
    await expect(awaitSources(sources(40, { inventory: 40, alerts: 52 }), 0)).resolves.toBeUndefined();
  });

  it('waits for a source still behind, then goes on', async () => {
    const published = { inventory: 10, alerts: 40 };
    setTimeout(() => (published.inventory = 41), 50);

    await expect(awaitSources(sources(40, published), Date.now() + 5_000)).resolves.toBeUndefined();
  });

  it('fails with a retryable 503 past its end, rather than build a short snapshot', async () => {
    const waiting = awaitSources(sources(40, { inventory: 39, alerts: 40 }), Date.now() + 60);

    await expect(waiting).rejects.toBeInstanceOf(DomainError);
    await expect(waiting).rejects.toMatchObject({ code: 'service_unavailable', retryAfterSeconds: FACTS_BEHIND_RETRY_AFTER_SECONDS });
  });

  it('leaves the build its reserve of the deadline, or half of what is left when that is less', () => {
    const now = Date.parse('2026-11-23T12:00:00.000Z');
    expect(waitEnd('2026-11-23T12:00:30.000Z', now)).toBe(now + 27_000);
    expect(waitEnd('2026-11-23T12:00:04.000Z', now)).toBe(now + 2_000);
    expect(waitEnd('2026-11-23T11:59:00.000Z', now)).toBe(now);
    expect(waitEnd(undefined, now)).toBe(now + 27_000);
  });
});
