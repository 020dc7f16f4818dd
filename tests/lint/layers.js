// Which layer a file or an import belongs to, and what each layer may import. The layering is described in
// src/README.md; eslint.config.js turns these rules on for every file, and each rule decides from the
// linted file's own path what applies, so a file cannot escape a rule by the shape of its path.
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root: this file is tests/lint/layers.js. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A path relative to the repository, with forward slashes; null outside it. */
export function repoPath(absolutePath) {
  const relative = path.relative(ROOT, absolutePath);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return null;
  return relative.split(path.sep).join('/');
}

const APP_AREAS = new Set(['ui', 'shell', 'routes', 'screens']);

/**
 * The layer of a file of ours: { layer, area?, feature?, db? }, or null for a file in no layer (the
 * configuration files at the root). `area` splits src/app: 'feature' (with `feature`, its folder's name),
 * 'ui', 'shell', 'routes', 'screens', or 'root' for the app's own files (main.tsx, the route tree).
 */
export function classify(absolutePath) {
  const file = repoPath(absolutePath);
  if (file === null) return null;
  const parts = file.split('/');
  if (parts[0] === 'tests') return { layer: 'tests' };
  if (parts[0] === 'sw') return { layer: 'sw' };
  if (parts[0] !== 'src' || parts.length < 2) return null;
  // parts[2] is a file or a folder: an import of a folder ('../ui', its index) belongs where the folder does.
  const below = parts[2] ?? '';
  switch (parts[1]) {
    case 'domain':
      return { layer: 'domain' };
    case 'local':
      return { layer: 'local', db: below.startsWith('db') };
    case 'server':
      return { layer: 'server', db: below === 'db' };
    case 'app':
      if (below === 'features' && parts.length > 3)
        return { layer: 'app', area: 'feature', feature: parts[3].replace(/\.[^.]*$/, '') };
      return { layer: 'app', area: APP_AREAS.has(below) ? below : 'root' };
    default:
      return null;
  }
}

/** How a place is named in a message: 'src/app/features/auth', 'src/app/ui', 'src/local', 'tests'. */
export function placeName(place) {
  if (place.layer === 'tests' || place.layer === 'sw') return place.layer;
  if (place.layer !== 'app')
    return `src/${place.layer}${place.db ? (place.layer === 'local' ? '/db*' : '/db') : ''}`;
  if (place.area === 'feature') return `src/app/features/${place.feature}`;
  if (place.area === 'root') return 'src/app (its root files)';
  return `src/app/${place.area}`;
}

const BUILTINS = new Set(builtinModules);

/**
 * What an import specifier names: { kind: 'ours', path } (resolved against the importing file's folder,
 * without its query), { kind: 'builtin', name }, or { kind: 'package', name, specifier }.
 */
export function resolveSpecifier(specifier, importingFile) {
  const bare = specifier.split('?')[0];
  if (bare.startsWith('.')) return { kind: 'ours', path: path.resolve(path.dirname(importingFile), bare) };
  if (bare.startsWith('/')) return { kind: 'ours', path: path.join(ROOT, bare) };
  if (bare.startsWith('node:') || BUILTINS.has(bare) || BUILTINS.has(bare.split('/')[0]))
    return { kind: 'builtin', name: bare };
  const parts = bare.split('/');
  const name = bare.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  return { kind: 'package', name, specifier: bare };
}

// What each layer of ours may import of ours; src/app is further split by area below.
const MAY_IMPORT = {
  domain: ['domain'],
  local: ['domain', 'local'],
  app: ['domain', 'local', 'app'],
  server: ['domain', 'server'],
  sw: ['domain', 'local', 'sw'],
};

// Within src/app: what each area may import. Features are composed only by routes and screens; ui is the
// toolkit under everything; the shell (the frame around a screen) uses the toolkit and no feature.
const APP_MAY_IMPORT = {
  feature: ['ui', 'shell'], // and its own feature
  ui: ['ui'],
  shell: ['ui', 'shell'],
  screens: ['feature', 'ui', 'shell', 'screens'],
  routes: ['feature', 'ui', 'shell', 'screens', 'routes', 'root'],
  root: ['ui', 'shell', 'screens', 'routes', 'root'],
};

/** Why importing a file of ours from `from` breaks the layering, or null when it may. */
export function ourImportProblem(from, targetPath) {
  if (from.layer === 'tests') return null;
  const to = classify(targetPath);
  if (to === null) {
    // The root's configuration files: src/domain stays self-contained even from these.
    return from.layer === 'domain' && repoPath(targetPath) !== null
      ? `${placeName(from)} imports nothing of ours outside src/domain (this imports ${repoPath(targetPath)}).`
      : null;
  }
  if (to.layer === 'tests') return `${placeName(from)} may not import the tests.`;
  if (!MAY_IMPORT[from.layer].includes(to.layer))
    return `${placeName(from)} may not import ${placeName(to)}.`;
  if (from.layer !== 'app' || to.layer !== 'app') return null;
  if (from.area === 'feature' && to.area === 'feature') {
    return from.feature === to.feature
      ? null
      : `A feature never imports another feature (${placeName(from)} imports ${placeName(to)}): what composes features lives in src/app/routes or src/app/screens; shared code goes to src/app/ui or src/domain.`;
  }
  if (!APP_MAY_IMPORT[from.area].includes(to.area)) {
    if (to.area === 'feature')
      return `${placeName(from)} may not import a feature (${placeName(to)}): only src/app/routes and src/app/screens compose features.`;
    return `${placeName(from)} may not import ${placeName(to)}.`;
  }
  return null;
}

/** The pure packages src/domain may use: it runs in the browser, the service worker and the server. */
const DOMAIN_PACKAGES = ['zod', 'luxon', '@zxcvbn-ts/*'];
/** The database drivers only src/server/db may import. */
const DB_DRIVERS = ['pg', '@electric-sql/pglite*', 'drizzle-orm/pglite*', 'drizzle-orm/node-postgres*'];

/** Whether a specifier matches a pattern: 'name*' is a prefix; 'name' is the module or one of its subpaths. */
function matches(specifier, pattern) {
  if (pattern.endsWith('*')) return specifier.startsWith(pattern.slice(0, -1));
  return specifier === pattern || specifier.startsWith(`${pattern}/`);
}
const packageIs = (target, name) => target.name === name;
const isReact = (name) => /(^|[-/])react($|[-/])/.test(name);

/** Why `from` may not import the package or builtin `target`, or null when it may. */
export function packageProblem(from, target) {
  if (from.layer === 'tests') return null;
  const where = placeName(from);
  if (target.kind === 'builtin') {
    return ['domain', 'local', 'app', 'sw'].includes(from.layer)
      ? `${where} runs in the browser: no Node builtin ('${target.name}').`
      : null;
  }
  if (from.layer === 'domain' && !DOMAIN_PACKAGES.some((pattern) => matches(target.specifier, pattern)))
    return `src/domain is pure: it imports only ${DOMAIN_PACKAGES.join(', ')}, not '${target.specifier}' (no framework, database or network library).`;
  if (packageIs(target, 'dexie') && !(from.layer === 'local' && from.db))
    return `Only src/local/db* may import dexie (${where} may not).`;
  if (packageIs(target, 'axios') && from.layer !== 'local')
    return `Only src/local talks to the network: ${where} may not import axios.`;
  if (
    DB_DRIVERS.some((pattern) => matches(target.specifier, pattern)) &&
    !(from.layer === 'server' && from.db)
  )
    return `Only src/server/db may import the database driver '${target.specifier}' (${where} may not).`;
  if (from.layer === 'local' && isReact(target.name))
    return `src/local knows nothing of React: it may not import '${target.specifier}'.`;
  return null;
}

/** The network globals a layer may not use, with where its network calls go instead. */
export function forbiddenNetworkGlobals(place) {
  if (place?.layer === 'domain')
    return {
      names: ['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource'],
      navigatorNames: ['sendBeacon'],
      why: 'src/domain is pure: it does not talk to the network',
    };
  if (place?.layer === 'app')
    return {
      names: ['fetch', 'XMLHttpRequest'],
      navigatorNames: [],
      why: 'Only src/local talks to the network (src/local/http.ts): src/app calls it',
    };
  return null;
}
