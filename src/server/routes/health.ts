import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { z } from 'zod';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    { schema: { tags: ['health'], response: { 200: z.object({ status: z.literal('ok') }) } } },
    async () => {
      await app.db.execute(sql`select 1`);
      return { status: 'ok' as const };
    },
  );
  app.get(
    '/docs',
    { schema: { hide: true, response: { 200: z.record(z.string(), z.unknown()) } } },
    async () => app.swagger() as unknown as Record<string, unknown>,
  );
};
