import type { TaskRefusalReason } from './protocol';

// A task's refusal of its file, thrown inside a sandbox process and sent to the server as a reply (the
// detail goes to the log; the server picks the words a person sees from the reason).

export class TaskRefusal extends Error {
  constructor(
    readonly reason: TaskRefusalReason,
    readonly detail: string,
    /** A PDF's page count, for 'too-many-pages'. */
    readonly pages?: number,
  ) {
    super(`${reason}: ${detail}`);
    this.name = 'TaskRefusal';
  }
}
