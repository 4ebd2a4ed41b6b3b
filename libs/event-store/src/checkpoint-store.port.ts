/**
 * Where a projection or subscriber keeps the global position it has handled, so it resumes there after a restart
 * (positions are exclusive: resuming from P delivers the events after P).
 */
export interface CheckpointStore {
  /** The saved position, or undefined when `name` never saved one. */
  load(name: string): Promise<number | undefined>;
  /** Durable once the promise resolves. Saving a lower position is allowed: that is how a rebuild starts over. */
  save(name: string, position: number): Promise<void>;
}

export const CHECKPOINT_STORE = Symbol('CheckpointStore');
