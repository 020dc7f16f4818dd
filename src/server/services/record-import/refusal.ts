// A record file refused for what it is, with the sentence a person sees and the status the route answers
// (400: not a readable record file; 413: too much of one). Thrown where the file is read, in a sandbox
// process, and carried back to the server as data (reader.ts), so it holds nothing but the two.

export type RecordFileRefusalStatus = 400 | 413;

export class RecordFileRefusal extends Error {
  constructor(
    readonly status: RecordFileRefusalStatus,
    message: string,
  ) {
    super(message);
    this.name = 'RecordFileRefusal';
  }
}
