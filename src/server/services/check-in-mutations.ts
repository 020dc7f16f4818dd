import { z } from 'zod';
import { CHECK_IN_MESSAGES as MESSAGES } from '../../domain/check-in';
import { checkInStepBodySchema } from '../../domain/check-in-steps';
import { HttpError } from '../plugins/errors';
import type { StoredAnswer } from './idempotency';
import { runCheckInStep } from './check-in';
import { defineMutations } from './record-mutations';

// The check-in's steps as a device's queue sends them (POST /api/sync/push, resource `check_ins`): each
// step is a create of the day's record, as POST /api/interactions/respond takes it (with action 'reset'
// for a reset), applied by the same handler. A check-in is never edited or deleted any other way.

const notChangeable = (): Promise<StoredAnswer> => Promise.reject(new HttpError(400, MESSAGES.stepsOnly));

export const checkInMutations = defineMutations({
  path: '/api/interactions/respond',
  notFound: MESSAGES.notFound,
  create: { body: checkInStepBodySchema, run: (context, id, body) => runCheckInStep(context, id, body) },
  // Any body: the answer is the same refusal, whatever the edit said.
  update: { body: z.looseObject({}), run: notChangeable },
  delete: { run: notChangeable },
});
