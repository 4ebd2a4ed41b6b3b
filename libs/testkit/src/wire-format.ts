import { readFileSync } from 'node:fs';
import type { RecordedEvent } from '@pss/event-store';
import type { IntegrationEventSource } from '@pss/projections';

/**
 * Specs that a publisher's messages for `samples` are, byte for byte, the JSON lines kept in `file` (one line per
 * sample, written when the file was): other teams parse these bytes, so a change there is a change of the wire.
 */
export function describeWireFormat(name: string, source: Pick<IntegrationEventSource, 'toIntegrationEvents'>, samples: RecordedEvent[], file: string): void {
  const wire = readFileSync(file, 'utf8').trimEnd().split('\n');
  describe(`${name} integration events on the wire`, () => {
    it.each(samples.map((sample, index) => [`${index} ${sample.type}`, sample, index] as const))('%s is published byte for byte as before', (_, sample, index) => {
      expect(JSON.stringify(source.toIntegrationEvents(sample))).toBe(wire[index]);
    });

    it('has a line for every sample', () => {
      expect(wire).toHaveLength(samples.length);
    });
  });
}
