import { DomainError, type Decider, type DomainEvent } from '@pss/kernel';

/**
 * Given/when/then for deciders (after Emmett's DeciderSpecification):
 *   spec.given([...past events]).when(command).then([...new events])  or  .thenThrows('code')
 */
export function deciderSpec<State, Command, Event extends DomainEvent>(decider: Decider<State, Command, Event>) {
  return {
    given(events: Event[]) {
      return {
        when(command: Command) {
          const run = () => decider.decide(command, events.reduce(decider.evolve, decider.initialState()));
          return {
            then(expected: Event[]): void {
              expect(run()).toEqual(expected);
            },
            thenNothingHappens(): void {
              expect(run()).toEqual([]);
            },
            /** `matching` is tested against the message followed by the JSON of the details. */
            thenThrows(code: string, matching?: string | RegExp): void {
              let caught: unknown;
              try {
                run();
              } catch (error) {
                caught = error;
              }
              expect(caught).toBeInstanceOf(DomainError);
              expect((caught as DomainError).code).toBe(code);
              const { message, details } = caught as DomainError;
              if (matching) expect(`${message} ${JSON.stringify(details ?? [])}`).toMatch(matching);
            },
          };
        },
      };
    },
  };
}
