// Moves TypeScript files and rewrites every relative import that names them (and the moved
// files' own relative imports), across src, plugins, test, bench and scripts.
// Usage: node scripts/move-modules.mjs old/path.ts=new/path.ts ...   (paths from the repo root)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = process.cwd();
const moves = new Map(
  process.argv.slice(2).map((pair) => {
    const [from, to] = pair.split('=');
    return [path.resolve(from), path.resolve(to)];
  }),
);

function sourceFiles(dir) {
  const files = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) files.push(...sourceFiles(full));
    else if (/\.(ts|tsx|mjs)$/.test(name)) files.push(full);
  }
  return files;
}

function resolveTs(fromFile, specifier) {
  const base = path.resolve(path.dirname(fromFile), specifier);
  for (const candidate of [base.replace(/\.js$/, '.ts'), `${base}.ts`, path.join(base, 'index.ts')])
    if (candidate.endsWith('.ts') && existsSync(candidate)) return candidate;
  return undefined;
}

function specifierFor(fromFile, target, original) {
  let rel = path.relative(path.dirname(fromFile), target).replace(/\.ts$/, '');
  if (!rel.startsWith('.')) rel = `./${rel}`;
  if (original.endsWith('.js')) rel += '.js';
  return rel;
}

const pattern = /((?:from|import|require)\s*\(?\s*)(['"])(\.{1,2}\/[^'"]+)\2/g;
const files = ['src', 'plugins', 'test', 'bench', 'scripts', 'web']
  .filter((d) => existsSync(d))
  .flatMap((d) => sourceFiles(path.resolve(d)));
const rewritten = new Map();
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const newFile = moves.get(file) ?? file;
  const out = text.replace(pattern, (whole, lead, quote, spec) => {
    const target = resolveTs(file, spec);
    if (!target) return whole;
    const newTarget = moves.get(target) ?? target;
    if (newTarget === target && newFile === file) return whole;
    return `${lead}${quote}${specifierFor(newFile, newTarget, spec)}${quote}`;
  });
  if (out !== text || moves.has(file)) rewritten.set(file, out);
}
for (const [from, to] of moves) {
  mkdirSync(path.dirname(to), { recursive: true });
  execFileSync('git', ['mv', path.relative(root, from), path.relative(root, to)]);
}
for (const [file, text] of rewritten) writeFileSync(moves.get(file) ?? file, text);
process.stdout.write(`${moves.size} moved, ${rewritten.size} files rewritten\n`);
