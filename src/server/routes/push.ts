import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { errorBodySchema } from '../../domain/errors';
import { PRESCRIPTION_PERMISSIONS } from '../../domain/prescriptions';
import {
  pushPublicKeySchema,
  pushSubscriptionBodySchema,
  pushUnsubscribeBodySchema,
  REMINDER_MESSAGES,
  snoozeBodySchema,
} from '../../domain/reminders';
import { pushSubscriptions } from '../db/schema';
import { HttpError } from '../plugins/errors';
import { createPushSender, pushEndpointProblem, type PushSender } from '../push/sender';
import { loadVapidKeys } from '../push/vapid';
import { prescriptionFor } from '../services/prescription-mutations';
import { accessChecks } from '../services/record-mutations';
import { createReminderService, snoozeReminder, type ReminderService } from '../services/reminders';

// /api/push (issue 11, point 4): the server's VAPID public key, a device opting in to reminders and out
// again, and snoozing a reminder from its notification. The sweep that sends reminders is
// services/reminders.ts; it runs on every server started by main.ts (REMINDER_INTERVAL_SECONDS).

declare module 'fastify' {
  interface FastifyInstance {
    reminders: ReminderService;
    pushSender: () => PushSender;
  }
}

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/** The VAPID keys (made and kept in DATA_DIR unless given), the sender and the reminder sweep, on `app`. */
export function decoratePush(app: FastifyInstance): void {
  const { push, dataDir, reminders } = app.config;
  const keys = loadVapidKeys({ dataDir, publicKey: push.publicKey, privateKey: push.privateKey });
  let sender: PushSender | undefined;
  const senderOf = () =>
    (sender ??= createPushSender({
      ...keys,
      subject: push.subject,
      allowInsecureEndpoints: push.allowHttpEndpoints,
    }));
  app.decorate('pushSender', senderOf);
  app.decorate(
    'reminders',
    createReminderService({
      db: app.db,
      sender: senderOf,
      log: app.log,
      catchUpMinutes: reminders.catchUpMinutes,
    }),
  );
  app.addHook('onClose', async () => app.reminders.stop());
}

export const pushRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('preHandler', app.authenticate);

  app.get(
    '/public-key',
    { schema: { tags: ['push'], response: { 200: pushPublicKeySchema, 401: errorBodySchema } } },
    async () => ({ publicKey: app.pushSender().publicKey }),
  );

  app.post(
    '/subscriptions',
    {
      schema: {
        tags: ['push'],
        body: pushSubscriptionBodySchema,
        response: { 201: z.object({ success: z.literal(true), message: z.string() }), ...errors },
      },
    },
    async (request, reply) => {
      const { endpoint, keys, time_zone } = request.body;
      const problem = pushEndpointProblem(endpoint, app.config.push.allowHttpEndpoints);
      if (problem)
        throw new HttpError(400, REMINDER_MESSAGES.endpointInvalid, undefined, {
          errors: [{ msg: problem, path: 'endpoint' }],
        });
      // One endpoint is one browser profile: whoever signs in there now gets its reminders.
      await app.db
        .insert(pushSubscriptions)
        .values({
          endpoint,
          userId: request.auth.userId,
          p256dh: keys.p256dh,
          auth: keys.auth,
          timeZone: time_zone ?? null,
        })
        .onConflictDoUpdate({
          target: pushSubscriptions.endpoint,
          set: {
            userId: request.auth.userId,
            p256dh: keys.p256dh,
            auth: keys.auth,
            timeZone: time_zone ?? null,
          },
        });
      return reply.status(201).send({ success: true as const, message: REMINDER_MESSAGES.enabled });
    },
  );

  app.delete(
    '/subscriptions',
    {
      schema: {
        tags: ['push'],
        body: pushUnsubscribeBodySchema,
        response: { 200: z.object({ success: z.literal(true), message: z.string() }), ...errors },
      },
    },
    async (request) => {
      const removed = await app.db
        .delete(pushSubscriptions)
        .where(
          and(
            eq(pushSubscriptions.endpoint, request.body.endpoint),
            eq(pushSubscriptions.userId, request.auth.userId),
          ),
        )
        .returning({ endpoint: pushSubscriptions.endpoint });
      if (removed.length === 0) throw new HttpError(404, REMINDER_MESSAGES.subscriptionUnknown);
      return { success: true as const, message: REMINDER_MESSAGES.disabled };
    },
  );

  app.post(
    '/snooze',
    {
      schema: {
        tags: ['push'],
        body: snoozeBodySchema,
        response: {
          200: z.object({ success: z.literal(true), message: z.string(), due_at: z.string() }),
          ...errors,
        },
      },
    },
    async (request) => {
      const { schedule_id, date, time, minutes } = request.body;
      // Whoever may see the prescription may put off their own reminder of it.
      await prescriptionFor(
        app.db,
        accessChecks(request.auth, { cached: false }),
        schedule_id,
        PRESCRIPTION_PERMISSIONS.read,
      );
      const dueAt = await snoozeReminder(app.db, {
        userId: request.auth.userId,
        prescriptionId: schedule_id,
        date,
        time,
        minutes,
      });
      return {
        success: true as const,
        message: REMINDER_MESSAGES.snoozed(minutes),
        due_at: dueAt.toISOString(),
      };
    },
  );
};
