/**
 * An aggregate as a decider (after Emmett and Jérémie Chassaing): pure functions, no I/O, no framework.
 * `decide` turns a command and the current state into new events, or throws a DomainError;
 * `evolve` folds one event into the state.
 */
export interface Decider<State, Command, Event extends DomainEvent> {
  initialState(): State;
  decide(command: Command, state: State): Event[];
  evolve(state: State, event: Event): State;
}

/** A domain event as deciders see it: PascalCase past-tense type and a plain JSON payload. */
export interface DomainEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
}

export const fold = <State, Event extends DomainEvent>(
  decider: Pick<Decider<State, unknown, Event>, 'initialState' | 'evolve'>,
  events: readonly Event[],
): State => events.reduce((state, event) => decider.evolve(state, event), decider.initialState());
