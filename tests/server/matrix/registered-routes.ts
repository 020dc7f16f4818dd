import type { FastifyInstance } from 'fastify';

// The routes the app registered, read back from Fastify's own tree (app.printRoutes): the app installs no
// onRoute hook the tests could use, and the tree is what requests are matched against. Each line of the
// tree is one node of the radix tree: its text continues its parent's, and " (GET, HEAD)" ends the nodes
// that are routes.
//
//   └── /
//       └── api/
//           ├── a
//           │   └── ppointments (GET, HEAD, POST)
//           │       └── / (GET, HEAD, POST)

export type RegisteredRoute = { method: string; path: string };

const NODE_LINE = /^((?:[│ ] {3})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/;

/** Every method and path of the tree, HEAD included, paths as Fastify keeps them. */
export function parseRouteTree(tree: string): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  const prefixes: string[] = [];
  for (const line of tree.split('\n')) {
    if (line.trim() === '') continue;
    const match = NODE_LINE.exec(line);
    if (!match) throw new Error(`cannot read this line of app.printRoutes(): ${JSON.stringify(line)}`);
    const depth = (match[1] ?? '').length / 4;
    const path = (prefixes[depth - 1] ?? '') + (match[2] ?? '');
    prefixes[depth] = path;
    prefixes.length = depth + 1;
    for (const method of (match[3] ?? '').split(',').map((name) => name.trim())) {
      if (method) routes.push({ method, path });
    }
  }
  return routes;
}

/**
 * The API routes: under /api, without HEAD (Fastify adds one to every GET), and with a trailing slash
 * folded into the path without it (a plugin's '/' route is registered at both).
 */
export function registeredApiRoutes(app: FastifyInstance): RegisteredRoute[] {
  const seen = new Map<string, RegisteredRoute>();
  for (const route of parseRouteTree(app.printRoutes())) {
    if (route.method === 'HEAD' || !route.path.startsWith('/api/')) continue;
    const path = route.path.length > 1 ? route.path.replace(/\/$/, '') : route.path;
    seen.set(`${route.method} ${path}`, { method: route.method, path });
  }
  return [...seen.values()].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}
