#!/usr/bin/env node
// Runs the benchmarks in bench/ (each prints its own figures).
// Usage: npm run bench [-- name ...]   e.g. npm run bench -- ingest
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const wanted = process.argv.slice(2);
const all = readdirSync('bench').filter((f) => f.endsWith('.bench.ts')).sort();
const chosen = wanted.length ? all.filter((f) => wanted.some((w) => f.includes(w))) : all;
if (chosen.length === 0) {
  console.error(`no benchmark matched; available: ${all.join(', ') || 'none'}`);
  process.exit(1);
}
let failed = 0;
for (const file of chosen) {
  console.log(`\n== bench/${file}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', `bench/${file}`], { stdio: 'inherit', env: { ...process.env, NODE_NO_WARNINGS: '1' } });
  if (result.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
