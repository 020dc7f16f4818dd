import type { SandboxTaskName, TaskReply, TaskRequest, WarmUpInput } from './protocol';
import { TaskRefusal } from './task-refusal';

// The entry of a sandbox process (started by sandbox.ts under a memory ceiling): it answers one task at a
// time, by message, and loads a task's code on its first use. It never outlives the server: when the
// channel closes it ends.

type Handler = (input: never) => Promise<unknown>;
type TaskModule = { run: Handler; warmUp?: () => Promise<void> };

const tasks: Record<SandboxTaskName, () => Promise<TaskModule>> = {
  'read-document': async () => {
    const module = await import('./read-document');
    return { run: module.readDocument, warmUp: module.warmUp };
  },
  'heic-to-jpeg': async () => ({ run: (await import('./heic-to-jpeg')).heicToJpeg }),
  'read-record-file': async () => {
    const module = await import('./read-record-file');
    return { run: module.readRecordFileTask, warmUp: module.warmUp };
  },
};

/** Loads the named tasks' modules and starts their engines, before the process's first job. */
async function warmUp(input: WarmUpInput): Promise<null> {
  for (const name of input.tasks) await (await tasks[name]()).warmUp?.();
  return null;
}

/** Errors an allocation refused by the ceiling throws, where the runtime survives to say so. */
const MEMORY_ERRORS = /Array buffer allocation failed|could not allocate|Unable to grow|out of memory/i;

// WebAssembly decoders (libheif) grow their memory through WebAssembly.Memory#grow; when the ceiling
// refuses it they report only a generic failure ("HEIF processing error"). Watching the refusals here
// tells a file that needed too much memory from one that is broken.
let growRefused = false;
const grow = WebAssembly.Memory.prototype.grow;
WebAssembly.Memory.prototype.grow = function watchedGrow(this: WebAssembly.Memory, delta: number) {
  try {
    return grow.call(this, delta);
  } catch (error) {
    growRefused = true;
    throw error;
  }
};

async function answer(request: TaskRequest): Promise<TaskReply> {
  growRefused = false;
  try {
    if (request.task === 'warm-up')
      return { id: request.id, ok: true, answer: await warmUp(request.input as WarmUpInput) };
    const task = await tasks[request.task]();
    return { id: request.id, ok: true, answer: await task.run(request.input as never) };
  } catch (error) {
    if (error instanceof TaskRefusal) {
      return {
        id: request.id,
        ok: false,
        reason: growRefused ? 'memory' : error.reason,
        detail: error.detail,
        ...(error.pages === undefined ? {} : { pages: error.pages }),
      };
    }
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    return {
      id: request.id,
      ok: false,
      reason: growRefused || MEMORY_ERRORS.test(detail) ? 'memory' : 'unreadable',
      detail,
    };
  }
}

process.on('message', (request: TaskRequest) => {
  void answer(request).then((reply) => process.send?.(reply));
});
process.on('disconnect', () => process.exit(0));
