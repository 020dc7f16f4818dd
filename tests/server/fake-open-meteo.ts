import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

// A weather service that answers every forecast like Open-Meteo does (20 °C, mainly clear), for test
// servers that may be asked GET /api/weather (the fuzz gate, the Lighthouse benchmark): never the real
// service, and never a 503 from one that cannot be reached. tests/server/weather.test.ts has a fuller one
// of its own.
export async function startFakeOpenMeteo(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((_request, response) =>
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end('{"current":{"time":"2026-01-01T12:00","temperature_2m":20,"weather_code":1}}'),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
