// Fails (exit 1) when the relative imports of the TypeScript sources under the given roots form
// a cycle (issue 18: "no import loop anywhere in src/ or plugins/"). Type-only imports count too:
// a loop of types is still two files that cannot be read, moved or tested apart.
// It also fails when the modules (the folders under a `modules/` folder, src/modules/<name>)
// import each other in a loop, even when no loop of files does (issue 30 item 5): a module that
// needs another and is needed by it cannot be understood or changed alone.
// Usage: node scripts/check-cycles.mjs [root ...]   (default: src plugins)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** Every .ts file under `dir`, recursively. */
function sourceFiles(dir) {
  const files = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) files.push(...sourceFiles(full));
    else if (name.endsWith('.ts')) files.push(full);
  }
  return files;
}

/** The .ts file a relative specifier names, or undefined (packages, JSON, missing files). */
function resolve(fromFile, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(fromFile), specifier);
  const candidates = [base.replace(/\.js$/, '.ts'), `${base}.ts`, path.join(base, 'index.ts')];
  return candidates.find((candidate) => candidate.endsWith('.ts') && existsSync(candidate));
}

/** file → the files it imports (static, dynamic, require and re-exports, via TypeScript's scanner). */
export function importGraph(roots) {
  const graph = new Map();
  for (const root of roots) {
    for (const file of sourceFiles(path.resolve(root))) {
      const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      const targets = importedFiles.map((entry) => resolve(file, entry.fileName)).filter(Boolean);
      graph.set(file, [...new Set(targets)]);
    }
  }
  return graph;
}

/** Each cycle once, as the list of files around it (Tarjan's strongly connected components). */
export function findCycles(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  let next = 0;
  const visit = (node) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node), low.get(target)));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node), index.get(target)));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    const selfLoop = (graph.get(node) ?? []).includes(node);
    if (component.length > 1 || selfLoop) cycles.push(component.reverse());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

/** The module a file belongs to: the folder right under its last `modules/` folder, or undefined. */
function moduleOf(file) {
  const parts = file.split(path.sep);
  const at = parts.lastIndexOf('modules');
  return at >= 0 && at < parts.length - 2 ? parts.slice(0, at + 2).join(path.sep) : undefined;
}

/**
 * The graph of modules (module → the modules it imports), and for each edge one import that
 * makes it (`from → to` files), so a report can say where to look.
 */
export function moduleGraph(graph) {
  const modules = new Map();
  const witness = new Map();
  for (const [file, targets] of graph) {
    const from = moduleOf(file);
    if (!from) continue;
    if (!modules.has(from)) modules.set(from, []);
    for (const target of targets) {
      const to = moduleOf(target);
      if (!to || to === from) continue;
      if (!modules.get(from).includes(to)) modules.get(from).push(to);
      if (!witness.has(`${from}→${to}`)) witness.set(`${from}→${to}`, [file, target]);
    }
  }
  return { modules, witness };
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename);
if (isMain) {
  const roots = process.argv.length > 2 ? process.argv.slice(2) : ['src', 'plugins'];
  const graph = importGraph(roots);
  const cycles = findCycles(graph);
  const relative = (file) => path.relative(process.cwd(), file);
  for (const cycle of cycles) process.stderr.write(`import cycle: ${cycle.map(relative).join(' ↔ ')}\n`);
  const { modules, witness } = moduleGraph(graph);
  const moduleCycles = findCycles(modules);
  for (const cycle of moduleCycles) {
    process.stderr.write(`module cycle: ${cycle.map((m) => path.basename(m)).join(' ↔ ')}\n`);
    for (const from of cycle)
      for (const to of modules.get(from))
        if (cycle.includes(to)) {
          const [file, target] = witness.get(`${from}→${to}`);
          process.stderr.write(`  ${relative(file)} → ${relative(target)}\n`);
        }
  }
  if (cycles.length > 0) process.stderr.write(`${cycles.length} import cycle(s) in ${roots.join(', ')}\n`);
  if (moduleCycles.length > 0)
    process.stderr.write(`${moduleCycles.length} module cycle(s) in ${roots.join(', ')}\n`);
  if (cycles.length > 0 || moduleCycles.length > 0) process.exit(1);
}
