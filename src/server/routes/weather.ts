import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../domain/errors';
import { NO_WEATHER_PLACE, weatherAnswerSchema, weatherQuerySchema } from '../../domain/weather';
import { HttpError } from '../plugins/errors';
import { createWeatherService, WeatherServiceError } from '../services/weather';
import { placeOfUser, zipPlaceOfUser } from '../services/weather-place';
import { signedIn } from './auth-common';
import { byUser, limitBy } from './auth-rate-limit';

// GET /api/weather?latitude=&longitude= (README.md beside this file): the current weather at the device's
// position, or, with no position, at the person's profile zip code (the header shows that without asking
// anyone for their location); asked from the weather service by the server, so the page's CSP keeps
// connect-src 'self' and one cache serves everyone nearby. Any signed-in person may ask. 404 when there is
// no position and the zip code names no place (a PIN code, a zip the table does not know): the app then
// offers to use the device's position. A failure is the service's, not the person's: 503 when it cannot be
// reached in time, 502 when it answers something else than weather; the app only logs either. The log says
// which failure it was, never where.

export const WEATHER_MESSAGES = {
  unavailable: 'The weather service is not available right now.',
  noPlace: 'Your profile has no US zip code to show the weather for. Share your location to see it.',
  broken: 'The weather service gave an answer that could not be read.',
} as const;

/** Weather asked per person and minute (429 beyond). */
export const WEATHER_PER_MINUTE = 20;

export const weatherRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = createWeatherService({ baseUrl: app.config.weatherApiUrl });

  app.get(
    // '' not '/': the path is /api/weather itself, without a trailing slash.
    '',
    {
      // Authenticated before the query is checked: without a valid sign-in the answer is 401 whatever
      // the query holds.
      onRequest: app.authenticate,
      // A device asks once in 10 minutes; more from one person would only spend the service's quota.
      preHandler: limitBy(app, [{ name: 'weather-user', max: WEATHER_PER_MINUTE, key: byUser }]),
      schema: {
        tags: ['weather'],
        summary:
          'The current weather at the given position (rounded to 2 decimals before it leaves the server) ' +
          "and the city of the person's zip code; with no position, the weather at that zip code.",
        ...signedIn,
        querystring: weatherQuerySchema,
        response: {
          200: weatherAnswerSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          404: errorBodySchema,
          429: errorBodySchema,
          502: errorBodySchema,
          503: errorBodySchema,
        },
      },
    },
    async (request) => {
      const { latitude, longitude } = request.query;
      const asked =
        latitude !== undefined && longitude !== undefined
          ? { latitude, longitude, place: placeOfUser(app.db, request.auth.userId) }
          : await atProfileZip(app, request.auth.userId);
      const [reading, place] = await Promise.all([
        service.current(asked.latitude, asked.longitude).catch((error: unknown) => {
          if (!(error instanceof WeatherServiceError)) throw error;
          request.log.warn({ weatherFailure: error.kind }, 'weather service failed');
          throw new HttpError(
            error.statusCode,
            error.statusCode === 503 ? WEATHER_MESSAGES.unavailable : WEATHER_MESSAGES.broken,
          );
        }),
        asked.place,
      ]);
      return { data: { ...reading, place } };
    },
  );
};

/** The coordinates and city of the person's zip code; 404 when it names no place. */
async function atProfileZip(app: FastifyInstance, userId: string) {
  const zip = await zipPlaceOfUser(app.db, userId);
  if (!zip) throw new HttpError(404, WEATHER_MESSAGES.noPlace, NO_WEATHER_PLACE);
  return { latitude: zip.latitude, longitude: zip.longitude, place: Promise.resolve(zip.city) };
}
