// Kincare's own lint rules: the layering of src/README.md, checked by the path each import resolves to
// (layers.js), not by how the import is written, and the cycles of the import graph (import-graph.js).
import {
  classify,
  forbiddenNetworkGlobals,
  ourImportProblem,
  packageProblem,
  repoPath,
  resolveSpecifier,
} from './layers.js';
import { pathBack, resolveAll } from './import-graph.js';

/** The string a specifier node holds when it is written out (a literal, or a template with no `${}`). */
function staticString(node) {
  if (!node) return null;
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0].value.cooked;
  return null;
}

/**
 * Calls `check(specifier, node, { typeOnly })` for every form of import in the file: import and export
 * declarations, import(), require(), TypeScript's `import x = require()` and `typeof import()`; and
 * `unresolvable(node)` for an import() or require() whose path is computed (and so cannot be checked).
 */
function visitImports(check, unresolvable) {
  const declared = (node) => {
    const specifier = staticString(node.source);
    if (specifier !== null)
      check(specifier, node.source, { typeOnly: node.importKind === 'type' || node.exportKind === 'type' });
  };
  const called = (node, argument) => {
    const specifier = staticString(argument);
    if (specifier !== null) check(specifier, argument, { typeOnly: false });
    else if (argument) unresolvable(node);
  };
  return {
    ImportDeclaration: declared,
    ExportNamedDeclaration: (node) => node.source && declared(node),
    ExportAllDeclaration: declared,
    ImportExpression: (node) => called(node, node.source),
    CallExpression(node) {
      if (node.callee.type === 'Identifier' && node.callee.name === 'require')
        called(node, node.arguments[0]);
    },
    TSImportEqualsDeclaration(node) {
      if (node.moduleReference.type === 'TSExternalModuleReference') {
        const argument = node.moduleReference.expression;
        const specifier = staticString(argument);
        if (specifier !== null) check(specifier, argument, { typeOnly: node.importKind === 'type' });
      }
    },
    TSImportType(node) {
      const specifier = staticString(node.source);
      if (specifier !== null) check(specifier, node.source, { typeOnly: true });
    },
  };
}

const layers = {
  meta: {
    type: 'problem',
    docs: {
      description: 'Each layer imports only what the layering of src/README.md allows it, by resolved path.',
    },
    schema: [],
  },
  create(context) {
    const place = classify(context.filename);
    if (place === null || place.layer === 'tests') return {};
    return visitImports(
      (specifier, node) => {
        const target = resolveSpecifier(specifier, context.filename);
        const problem =
          target.kind === 'ours' ? ourImportProblem(place, target.path) : packageProblem(place, target);
        if (problem) context.report({ node, message: problem });
      },
      (node) => {
        // The server may load a module by a path it works out (pdf.js's worker); what runs on the device
        // names its modules, so the bundler and this rule both see them.
        if (place.layer === 'server') return;
        context.report({
          node,
          message:
            'Write the path of an import() or require() as a string: a computed path cannot be checked.',
        });
      },
    );
  },
};

const GLOBAL_OBJECTS = new Set(['window', 'globalThis', 'self']);

/** The name a member expression reads: `x.name` or `x['name']`. */
function propertyName(member) {
  if (!member.computed && member.property.type === 'Identifier') return member.property.name;
  return staticString(member.property);
}

/** Whether a node is the global object (window, globalThis, self) or, with `navigator`, the navigator. */
function isGlobal(node, names) {
  if (node.type === 'Identifier') return names.has(node.name);
  return (
    node.type === 'MemberExpression' &&
    node.object.type === 'Identifier' &&
    GLOBAL_OBJECTS.has(node.object.name) &&
    names.has(propertyName(node))
  );
}

const networkGlobals = {
  meta: {
    type: 'problem',
    docs: { description: 'src/domain and src/app use no network global; src/local talks to the network.' },
    schema: [],
  },
  create(context) {
    const forbidden = forbiddenNetworkGlobals(classify(context.filename));
    if (forbidden === null) return {};
    const names = new Set(forbidden.names);
    const navigatorNames = new Set(forbidden.navigatorNames);
    const report = (node, name) =>
      context.report({ node, message: `${forbidden.why}; it may not use ${name}.` });
    const sourceCode = context.sourceCode;
    return {
      // fetch(...), new XMLHttpRequest(): a name no declaration of the file's own gives a value.
      Program(program) {
        const globalScope = sourceCode.getScope(program);
        for (const reference of globalScope.through)
          if (names.has(reference.identifier.name)) report(reference.identifier, reference.identifier.name);
        for (const name of names)
          for (const reference of globalScope.set.get(name)?.references ?? [])
            report(reference.identifier, name);
      },
      // window.fetch, globalThis['fetch'], self.XMLHttpRequest, navigator.sendBeacon, window.navigator.sendBeacon.
      MemberExpression(node) {
        const name = propertyName(node);
        if (names.has(name) && isGlobal(node.object, GLOBAL_OBJECTS)) report(node, name);
        if (navigatorNames.has(name) && isGlobal(node.object, new Set(['navigator'])))
          report(node, `navigator.${name}`);
      },
      // const { fetch } = window;
      VariableDeclarator(node) {
        if (node.id.type !== 'ObjectPattern' || !node.init || !isGlobal(node.init, GLOBAL_OBJECTS)) return;
        for (const property of node.id.properties) {
          const name =
            property.type === 'Property'
              ? property.computed
                ? staticString(property.key)
                : property.key.name
              : null;
          if (names.has(name)) report(property, name);
        }
      },
    };
  },
};

const noCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'No import cycle among our own files.' },
    schema: [
      {
        type: 'object',
        properties: {
          // Imports that close a cycle today and are yet to be broken, as [importing file, imported file]
          // (repository paths): left out of the graph, so every other cycle is still found.
          pendingBreaks: {
            type: 'array',
            items: { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 2 },
          },
        },
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const file = context.filename;
    if (repoPath(file) === null) return {};
    const pending = new Set((context.options[0]?.pendingBreaks ?? []).map(([from, to]) => `${from} ${to}`));
    const followed = (from, to) => !pending.has(`${repoPath(from)} ${repoPath(to)}`);
    const imports = [];
    const collect = visitImports(
      (specifier, node, { typeOnly }) => {
        if (!typeOnly && specifier.startsWith('.'))
          imports.push({ specifier: specifier.split('?')[0], node });
      },
      () => {},
    );
    return {
      ...collect,
      'Program:exit'() {
        const searched = new Set();
        const reported = new Set();
        for (const { specifier, node } of imports) {
          const [target] = resolveAll(file, [specifier]);
          if (!target || reported.has(target) || !followed(file, target)) continue;
          const route = pathBack(target, file, searched, followed);
          if (!route) continue;
          reported.add(target);
          const files = [file, ...route].map((step) => repoPath(step) ?? step);
          context.report({ node, message: `Import cycle: ${files.join(' -> ')}.` });
        }
      },
    };
  },
};

export default {
  meta: { name: 'kincare' },
  rules: { layers, 'network-globals': networkGlobals, 'no-cycle': noCycle },
};
