import { spawn, type ChildProcess } from 'node:child_process';
import { setPriority } from 'node:os';
import { childBundle } from './child-bundle';
import { FairQueue, QueueFull, type FairQueueOptions } from './fair-queue';
import type { SandboxTaskName, SandboxTasks, TaskRefusalReason, TaskReply, TaskRequest } from './protocol';

// Every decode of a file a person sent (a HEIC photo turned into a JPEG, a PDF's text and pages, OCR) runs
// in a sandbox process: a child Node process started under a hard memory ceiling (RLIMIT_DATA, which
// counts the JavaScript heap, WebAssembly memory and native buffers alike; a worker thread's
// resourceLimits cover the JavaScript heap only) and at a lower CPU priority than the API. A file that
// needs more than the ceiling fails alone, with a plain answer, and the server's own memory does not
// move. Processes are kept warm between jobs (pdf.js and tesseract load once), replaced after a job
// that failed or ran out of time, and renewed after `jobsPerProcess` jobs. Who runs next is decided by a
// FairQueue (one running job per account, a bounded lane each). See README.md beside this file.

export type SandboxOptions = {
  /** For messages and logs: 'OCR', 'image conversion'. */
  name: string;
  /** Processes running at once (each holds up to memoryMb). */
  processes: number;
  /** The memory ceiling of each process. */
  memoryMb: number;
  /** A process is renewed after this many jobs, so nothing one file left behind lives long. */
  jobsPerProcess: number;
  /** Jobs one account may have waiting, and all accounts together. */
  perAccountWaiting: number;
  totalWaiting: number;
  /**
   * The tasks a new process gets ready for before its first job (pdf.js loaded, tesseract started): a
   * job's time limit then counts the reading of its file, not the start of a process.
   */
  warmUp: SandboxTaskName[];
};

/** Why a task did not answer: refused by the task, or the sandbox's own reasons. */
export type SandboxFailureReason = TaskRefusalReason | 'timeout' | 'busy' | 'closed' | 'crashed';

export class SandboxFailure extends Error {
  constructor(
    readonly reason: SandboxFailureReason,
    /** Technical detail for the log, never shown to a person. */
    readonly detail: string,
    readonly extra: { pages?: number; retryAfterSeconds?: number; scope?: 'account' | 'server' } = {},
  ) {
    super(`${reason}: ${detail}`);
    this.name = 'SandboxFailure';
  }
}

export type Sandbox = {
  run<Task extends SandboxTaskName>(
    account: string,
    task: Task,
    input: SandboxTasks[Task]['input'],
    options: { timeoutMs: number },
  ): Promise<SandboxTasks[Task]['answer']>;
  /** The process ids running now (for tests and the benchmark). */
  pids(): number[];
  /** Jobs running and waiting now. */
  load(): { running: number; waiting: number };
  close(): Promise<void>;
};

/** Lower than the API (0): a busy sandbox gives way to people's plain requests. */
const SANDBOX_NICENESS = 10;
/** What a crashed process wrote last, kept for the log. */
const STDERR_TAIL_CHARS = 2_000;
/** What V8 and the WebAssembly runtime write when the ceiling refuses memory. */
const MEMORY_WORDS =
  /out of memory|allocation failed|could not allocate|unable to grow|cannot allocate memory|OOM/i;

type Worker = {
  process: ChildProcess;
  jobs: number;
  stderr: string;
};

/** Refusals after which the process is as it was before the file: kept for the next job. */
const CLEAN_REFUSALS = new Set<SandboxFailureReason>([
  'unreadable',
  'password',
  'too-many-pages',
  'too-complex',
]);

/** How long a new process may take to load its modules and engines (a busy machine is slow at it). */
const STARTUP_TIMEOUT_MS = 120_000;

function startWorker(options: SandboxOptions, entry: string): Worker {
  const kilobytes = options.memoryMb * 1024;
  // The shell sets the ceiling and then becomes Node (exec), so the limit is the process's own.
  // No core files: a process that hit its ceiling must not write gigabytes to disk.
  const child = spawn(
    '/bin/sh',
    [
      '-c',
      `ulimit -d ${kilobytes} && ulimit -c 0 && exec "$0" "$@"`,
      process.execPath,
      // V8 gives up (and the process ends) before the ceiling leaves it half able to allocate.
      `--max-old-space-size=${Math.max(64, Math.floor(options.memoryMb * 0.75))}`,
      entry,
    ],
    {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced', // Uint8Arrays travel as bytes, not as JSON arrays of numbers
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', NODE_ENV: process.env.NODE_ENV ?? 'production' },
    },
  );
  const worker: Worker = { process: child, jobs: 0, stderr: '' };
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    worker.stderr = (worker.stderr + chunk).slice(-STDERR_TAIL_CHARS);
  });
  if (child.pid !== undefined) {
    try {
      setPriority(child.pid, SANDBOX_NICENESS);
    } catch {
      // Not permitted here: the ceiling still holds; only the priority is the API's.
    }
  }
  return worker;
}

/** An idle process must not keep the server from exiting; a busy one must, until it answers. */
function hold(worker: Worker, busy: boolean): void {
  const channel = worker.process.channel as { ref(): void; unref(): void } | null | undefined;
  if (busy) {
    worker.process.ref();
    channel?.ref();
  } else {
    worker.process.unref();
    channel?.unref();
  }
}

export function createSandbox(options: SandboxOptions): Sandbox {
  const queueOptions: FairQueueOptions = {
    concurrency: options.processes,
    perAccountWaiting: options.perAccountWaiting,
    totalWaiting: options.totalWaiting,
  };
  const queue = new FairQueue(queueOptions);
  /** Warm processes waiting for a job. */
  const idle: Worker[] = [];
  /** A process started to replace one that failed, so the next job does not wait for a cold start. */
  const spares: Promise<Worker>[] = [];
  const all = new Set<Worker>();
  let nextId = 1;
  let closed = false;

  const alive = (worker: Worker) => worker.process.exitCode === null && worker.process.signalCode === null;

  function retire(worker: Worker): void {
    all.delete(worker);
    worker.process.kill('SIGKILL');
  }

  /** A new process, once it has loaded its modules and started its engines. */
  async function start(): Promise<Worker> {
    const worker = startWorker(options, await childBundle());
    all.add(worker);
    try {
      await exchange(worker, 'warm-up', { tasks: options.warmUp }, STARTUP_TIMEOUT_MS);
    } catch (error) {
      retire(worker);
      throw error;
    }
    hold(worker, false);
    return worker;
  }

  async function takeWorker(): Promise<Worker> {
    let worker = idle.pop();
    while (worker && !alive(worker)) {
      all.delete(worker);
      worker = idle.pop();
    }
    return worker ?? (await (spares.shift() ?? start()));
  }

  /**
   * Sends one task and waits for its reply, the process's end, or the time limit. Whatever happens to the
   * process afterwards is the caller's to decide.
   */
  function exchange(
    worker: Worker,
    task: TaskRequest['task'],
    input: unknown,
    timeoutMs: number,
  ): Promise<unknown> {
    const id = nextId++;
    hold(worker, true);
    return new Promise((resolve, reject) => {
      const child = worker.process;
      let settled = false;
      const finish = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        child.off('error', onError);
        outcome();
      };
      const onMessage = (reply: TaskReply) => {
        if (reply.id !== id) return;
        if (reply.ok) {
          finish(() => resolve(reply.answer));
          return;
        }
        finish(() =>
          reject(
            new SandboxFailure(
              reply.reason,
              reply.detail,
              reply.pages === undefined ? {} : { pages: reply.pages },
            ),
          ),
        );
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
        const said = worker.stderr.trim();
        // V8 ends the process when its heap cannot grow; the ceiling makes that happen before the
        // machine runs short. Either way the file needed more than one document may use.
        const reason =
          MEMORY_WORDS.test(said) || signal === 'SIGABRT' || signal === 'SIGTRAP' ? 'memory' : 'crashed';
        finish(() =>
          reject(
            new SandboxFailure(reason, `the ${options.name} process ended (${signal ?? code}): ${said}`),
          ),
        );
      };
      const onError = (error: Error) =>
        finish(() =>
          reject(new SandboxFailure('crashed', `the ${options.name} process failed: ${error.message}`)),
        );
      const timer = setTimeout(
        () => finish(() => reject(new SandboxFailure('timeout', `over ${timeoutMs} ms`))),
        timeoutMs,
      );
      child.on('message', onMessage);
      child.on('exit', onExit);
      child.on('error', onError);
      child.send({ id, task, input } satisfies TaskRequest, (error) => {
        if (error) onError(error);
      });
    });
  }

  /** One job on a warm process: kept warm for the next after an answer, replaced after anything else. */
  async function runJob<Task extends SandboxTaskName>(
    task: Task,
    input: SandboxTasks[Task]['input'],
    timeoutMs: number,
  ): Promise<SandboxTasks[Task]['answer']> {
    const worker = await takeWorker();
    worker.jobs += 1;
    try {
      const answer = (await exchange(worker, task, input, timeoutMs)) as SandboxTasks[Task]['answer'];
      if (!closed && worker.jobs < options.jobsPerProcess && alive(worker)) {
        hold(worker, false);
        idle.push(worker);
      } else {
        retire(worker);
      }
      return answer;
    } catch (error) {
      // A file refused by a check (unreadable, too many pages, a cap) leaves the process as it was: it
      // is kept. One that ran out of memory or time, or crashed it, may have left anything behind (a
      // half-grown heap): that process is not reused, and a fresh one starts warming for the next job.
      if (error instanceof SandboxFailure && CLEAN_REFUSALS.has(error.reason) && alive(worker) && !closed) {
        hold(worker, false);
        idle.push(worker);
        throw error;
      }
      retire(worker);
      if (!closed && spares.length === 0) {
        const spare = start();
        spare.catch(() => {}); // a spare that fails to start fails the job that takes it, not the server
        spares.push(spare);
      }
      throw error;
    }
  }

  return {
    async run(account, task, input, { timeoutMs }) {
      if (closed) throw new SandboxFailure('closed', `the ${options.name} sandbox is closing`);
      let release;
      try {
        release = await queue.enter(account);
      } catch (error) {
        if (error instanceof QueueFull) {
          throw new SandboxFailure('busy', error.message, {
            retryAfterSeconds: error.retryAfterSeconds,
            scope: error.scope,
          });
        }
        throw error;
      }
      try {
        if (closed) throw new SandboxFailure('closed', `the ${options.name} sandbox is closing`);
        return await runJob(task, input, timeoutMs);
      } finally {
        release();
      }
    },
    load() {
      return queue.load;
    },
    pids() {
      return [...all].flatMap((worker) => (worker.process.pid === undefined ? [] : [worker.process.pid]));
    },
    async close() {
      closed = true;
      queue.refuseAll(new SandboxFailure('closed', `the ${options.name} sandbox is closing`));
      const exits = [...all].map(
        (worker) =>
          new Promise<void>((resolve) => {
            if (worker.process.exitCode !== null || worker.process.signalCode !== null) return resolve();
            worker.process.once('exit', () => resolve());
            // An idle process is unreferenced (hold): referenced again, the wait for its end keeps Node
            // running, or a script whose last work is this close would end with the promise unsettled.
            hold(worker, true);
            worker.process.kill('SIGKILL');
          }),
      );
      all.clear();
      idle.splice(0);
      spares.splice(0);
      await Promise.all(exits);
    },
  };
}
