#!/usr/bin/env node
// Runs every test file with Node's test runner (TypeScript through tsx).
// Usage: node scripts/run-tests.mjs [path-substring ...]
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOTS = ['test', 'packages', 'bench', 'examples'];
// test/reliability runs on its own (npm run test:reliability): it is long and prints figures.
const SKIP = new Set(['node_modules', 'dist', 'data', 'reliability']);

function find(dir, out = []) {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries) {
    if (SKIP.has(name)) continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) find(full, out);
    else if (name.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

const filters = process.argv.slice(2);
const files = ROOTS.flatMap((r) => find(r))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=300000', ...files],
  { stdio: 'inherit', env: { ...process.env, NODE_NO_WARNINGS: '1' } },
);
process.exit(result.status ?? 1);
