import { ManualClock } from '@pss/testkit';
import { EndpointBreakers } from './endpoint-breakers';

describe('endpoint breakers', () => {
  const clock = new ManualClock('2026-06-01T12:00:00.000Z');
  const breakers = () => new EndpointBreakers({ timeoutsToOpen: 3, halfOpenAfterMs: 60_000 }, clock);
  const silent = 'org-a https://hooks.example:8443';
  /** Breakers whose `silent` endpoint has just timed out three times in a row. */
  const opened = () => {
    const made = breakers();
    for (let i = 0; i < 3; i += 1) made.record(silent, 'timeout');
    return made;
  };

  it('opens after the third consecutive timeout, and only for that endpoint', () => {
    const made = breakers();
    expect(made.record(silent, 'timeout')).toBe('closed');
    expect(made.record(silent, 'timeout')).toBe('closed');
    expect(made.record(silent, 'timeout')).toBe('open');
    expect(made.state(silent)).toBe('open');
    expect(made.state('org-b https://hooks.example:8443')).toBe('closed');
  });

  it('counts consecutive timeouts only: an answer in between starts the count again, an unknown end leaves it', () => {
    const made = breakers();
    made.record(silent, 'timeout');
    made.record(silent, 'timeout');
    made.record(silent, 'prompt');
    made.record(silent, 'timeout');
    made.record(silent, 'unknown');
    expect(made.record(silent, 'timeout')).toBe('closed');
    expect(made.record(silent, 'timeout')).toBe('open');
  });

  it('half-opens after the delay, lets one probe through, and closes on an answer', () => {
    const made = opened();
    clock.advance(59_999);
    expect(made.state(silent)).toBe('open');
    clock.advance(1);
    expect(made.state(silent)).toBe('half-open');
    made.probe(silent);
    expect(made.state(silent)).toBe('probing');
    expect(made.record(silent, 'prompt')).toBe('closed');
    // Closed from scratch: one timeout more does not open it again.
    expect(made.record(silent, 'timeout')).toBe('closed');
  });

  it('opens again for a full delay when the probe times out, and stays half-open when the probe never reached it', () => {
    const made = opened();
    clock.advance(60_000);
    made.probe(silent);
    expect(made.record(silent, 'unknown')).toBe('half-open');
    made.probe(silent);
    expect(made.record(silent, 'timeout')).toBe('open');
    clock.advance(59_000);
    expect(made.state(silent)).toBe('open');
    clock.advance(1_000);
    expect(made.state(silent)).toBe('half-open');
  });
});
