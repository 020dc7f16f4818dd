import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, desc, eq, notInArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { errorBodySchema } from '../../domain/errors';
import { PRESCRIPTION_PERMISSIONS } from '../../domain/prescriptions';
import {
  MAX_PUSH_DEVICES_PER_PERSON,
  pushPublicKeySchema,
  pushSubscriptionBodySchema,
  pushUnsubscribeBodySchema,
  pushTestAnswerSchema,
  pushTestBodySchema,
  REMINDER_MESSAGES,
  snoozeBodySchema,
  TEST_REMINDER,
  type TestReminderPush,
} from '../../domain/reminders';
import { pushSubscriptions, users } from '../db/schema';
import { HttpError } from '../plugins/errors';
import {
  createPushSender,
  systemHostResolver,
  type HostResolver,
  type PushEndpointCheck,
  type PushSender,
} from '../push/sender';
import { loadVapidKeys } from '../push/vapid';
import { prescriptionFor } from '../services/prescription-mutations';
import { accessChecks } from '../services/record-mutations';
import { createReminderService, snoozeReminder, type ReminderService } from '../services/reminders';

// /api/push: the server's VAPID public key, a device opting in to reminders and out again, and snoozing
// a reminder from its notification, and a test reminder to one's own device. The sweep that sends reminders is services/reminders.ts; it runs on
// every server started by main.ts (REMINDER_INTERVAL_SECONDS). What may be subscribed, and how many
// devices one person may have, is in push/README.md.

declare module 'fastify' {
  interface FastifyInstance {
    reminders: ReminderService;
    pushSender: () => PushSender;
    /** How push endpoints' host names are looked up, at subscribing and at each send; tests put their own. */
    pushHostResolver: HostResolver;
  }
}

/** The answer to an endpoint refused at subscribing: what kind of refusal, in words, and the detail. */
function endpointRefusal(check: Exclude<PushEndpointCheck, { ok: true }>): HttpError {
  const message =
    check.reason === 'not-public'
      ? REMINDER_MESSAGES.endpointNotPublic
      : check.reason === 'unresolvable'
        ? REMINDER_MESSAGES.endpointHostUnknown
        : REMINDER_MESSAGES.endpointInvalid;
  return new HttpError(400, message, undefined, { errors: [{ msg: check.problem, path: 'endpoint' }] });
}

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/** The VAPID keys (made and kept in DATA_DIR unless given), the sender and the reminder sweep, on `app`. */
export function decoratePush(app: FastifyInstance): void {
  const { push, dataDir, reminders } = app.config;
  const keys = loadVapidKeys({ dataDir, publicKey: push.publicKey, privateKey: push.privateKey });
  let sender: PushSender | undefined;
  app.decorate('pushHostResolver', systemHostResolver);
  const senderOf = () =>
    (sender ??= createPushSender({
      ...keys,
      subject: push.subject,
      allowInsecureEndpoints: push.allowHttpEndpoints,
      // Read at each lookup, so that a resolver put in place after start-up is the one used.
      resolveHost: (hostname) => app.pushHostResolver(hostname),
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
      const userId = request.auth.userId;
      const check = await app.pushSender().checkEndpoint(endpoint);
      if (!check.ok) throw endpointRefusal(check);
      const replaced = await app.db.transaction(async (tx) => {
        // One person's subscribing is one at a time, so the count below cannot be raced past.
        await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
        // One endpoint is one browser profile: whoever signs in there now gets its reminders, and for
        // them it is a new device (created_at now), not the oldest one to give way.
        await tx
          .insert(pushSubscriptions)
          .values({ endpoint, userId, p256dh: keys.p256dh, auth: keys.auth, timeZone: time_zone ?? null })
          .onConflictDoUpdate({
            target: pushSubscriptions.endpoint,
            set: {
              userId,
              p256dh: keys.p256dh,
              auth: keys.auth,
              timeZone: time_zone ?? null,
              createdAt: sql`now()`,
            },
          });
        // At most so many devices each: the newest are kept. Replacing rather than refusing, because
        // a person cannot turn reminders off on a phone that is lost, sold or wiped.
        const kept = tx
          .select({ endpoint: pushSubscriptions.endpoint })
          .from(pushSubscriptions)
          .where(eq(pushSubscriptions.userId, userId))
          .orderBy(desc(pushSubscriptions.createdAt), desc(pushSubscriptions.endpoint))
          .limit(MAX_PUSH_DEVICES_PER_PERSON);
        const removed = await tx
          .delete(pushSubscriptions)
          .where(and(eq(pushSubscriptions.userId, userId), notInArray(pushSubscriptions.endpoint, kept)))
          .returning({ endpoint: pushSubscriptions.endpoint });
        return removed.length > 0;
      });
      const message = replaced ? REMINDER_MESSAGES.enabledOldestReplaced : REMINDER_MESSAGES.enabled;
      return reply.status(201).send({ success: true as const, message });
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
    '/test',
    {
      schema: {
        tags: ['push'],
        body: pushTestBodySchema,
        response: { 200: pushTestAnswerSchema, ...errors, 410: errorBodySchema, 502: errorBodySchema },
      },
    },
    async (request) => {
      // Only to a device of the caller's own: anyone else's endpoint is as unknown as a made-up one.
      const [subscription] = await app.db
        .select()
        .from(pushSubscriptions)
        .where(
          and(
            eq(pushSubscriptions.endpoint, request.body.endpoint),
            eq(pushSubscriptions.userId, request.auth.userId),
          ),
        )
        .limit(1);
      if (!subscription) throw new HttpError(404, REMINDER_MESSAGES.testUnknownDevice);
      const message: TestReminderPush = { kind: 'test', ...TEST_REMINDER, url: '/' };
      const outcome = await app
        .pushSender()
        .send(
          { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
          message,
          { ttlSeconds: 60, urgency: 'high', topic: 'kincare-test' },
        );
      if (outcome.status === 'gone') {
        // The browser ended it: the sweep would find the same and forget it; so does this.
        await app.db.delete(pushSubscriptions).where(eq(pushSubscriptions.endpoint, subscription.endpoint));
        throw new HttpError(410, REMINDER_MESSAGES.testGone);
      }
      if (outcome.status === 'failed') {
        request.log.warn(
          { statusCode: outcome.statusCode },
          'a test reminder was not taken by the push service',
        );
        throw new HttpError(502, REMINDER_MESSAGES.testFailed);
      }
      return { success: true as const, message: REMINDER_MESSAGES.testSent };
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
