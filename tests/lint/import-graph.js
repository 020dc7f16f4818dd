// The import graph of our own files, for the cycle rule: each file's relative imports, read from the
// disk with regular expressions (a parser per file would double the lint's time). Kept per file while
// its modification time stays the same, so one lint run reads each file once.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const EXTENSIONS = ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.jsx'];

function isFile(candidate) {
  try {
    return statSync(candidate).isFile();
  } catch {
    return false;
  }
}

/** The file a relative import names, trying the extensions and index files a bundler tries; null if none. */
export function resolveFile(absolutePath) {
  if (isFile(absolutePath) && EXTENSIONS.includes(path.extname(absolutePath))) return absolutePath;
  // TypeScript's ESM style names the emitted file: './x.js' is ./x.ts.
  const withoutJs = absolutePath.replace(/\.(js|mjs|cjs|jsx)$/, '');
  for (const base of [absolutePath, withoutJs]) {
    for (const extension of EXTENSIONS) if (isFile(base + extension)) return base + extension;
  }
  for (const extension of EXTENSIONS) {
    const index = path.join(absolutePath, `index${extension}`);
    if (isFile(index)) return index;
  }
  return null;
}

/** The text without its comments (strings and template literals kept), so a commented import is not one. */
function withoutComments(text) {
  let out = '';
  let index = 0;
  while (index < text.length) {
    const char = text[index];
    const next = text[index + 1];
    if (char === '/' && next === '/') {
      while (index < text.length && text[index] !== '\n') index += 1;
    } else if (char === '/' && next === '*') {
      const end = text.indexOf('*/', index + 2);
      index = end === -1 ? text.length : end + 2;
      out += ' ';
    } else if (char === "'" || char === '"' || char === '`') {
      let end = index + 1;
      while (end < text.length && text[end] !== char) end += text[end] === '\\' ? 2 : 1;
      out += text.slice(index, end + 1);
      index = end + 1;
    } else {
      out += char;
      index += 1;
    }
  }
  return out;
}

// Each form an import takes. An import's clause holds only names, braces, commas, '*' and 'as'; type-only
// imports are erased before the code runs, so they make no cycle.
const IMPORT_PATTERNS = [
  /(?<![\w$.])(?:import|export)\s+(type\s+)?[\w$\s{},*]*?\bfrom\s*(['"])([^'"\n]+)\2/g,
  /(?<![\w$.])import\s*()(['"])([^'"\n]+)\2/g,
  /(?<![\w$.])(?:import|require)\s*\(\s*()(['"`])([^'"`\n]+)\2\s*\)/g,
];

/** The relative specifiers a source text imports at run time (not its type-only imports). */
export function importedSpecifiers(text) {
  const code = withoutComments(text);
  const specifiers = [];
  for (const pattern of IMPORT_PATTERNS) {
    for (const match of code.matchAll(pattern)) {
      if (match[1]) continue; // import type / export type
      if (match[3].startsWith('.')) specifiers.push(match[3].split('?')[0]);
    }
  }
  return specifiers;
}

const cache = new Map();

/** The files of ours a file imports at run time, resolved; read from the disk unless its text is given. */
export function importsOf(file) {
  let modified;
  try {
    modified = statSync(file).mtimeMs;
  } catch {
    return [];
  }
  const cached = cache.get(file);
  if (cached && cached.modified === modified) return cached.imports;
  const imports = resolveAll(file, importedSpecifiers(readFileSync(file, 'utf8')));
  cache.set(file, { modified, imports });
  return imports;
}

/** The existing files the specifiers name, relative to `file`'s folder. */
export function resolveAll(file, specifiers) {
  const resolved = new Set();
  for (const specifier of specifiers) {
    const target = resolveFile(path.resolve(path.dirname(file), specifier));
    if (target) resolved.add(target);
  }
  return [...resolved];
}

/**
 * A way back from `start` to `file` through the graph, as the list of files from `start` to `file`; null if
 * none. `searched` holds the files already known not to lead back, shared between the searches of one file;
 * `followed(from, to)` says whether an import is part of the graph.
 */
export function pathBack(start, file, searched, followed = () => true) {
  if (start === file) return [file];
  if (searched.has(start)) return null;
  const cameFrom = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const current = queue.shift();
    for (const next of importsOf(current)) {
      if (!followed(current, next)) continue;
      if (next === file) {
        const route = [file, current];
        for (let step = cameFrom.get(current); step !== null; step = cameFrom.get(step)) route.push(step);
        return route.reverse();
      }
      if (cameFrom.has(next) || searched.has(next)) continue;
      cameFrom.set(next, current);
      queue.push(next);
    }
  }
  for (const visited of cameFrom.keys()) searched.add(visited);
  return null;
}
