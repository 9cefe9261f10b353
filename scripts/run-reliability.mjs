#!/usr/bin/env node
// Runs the reliability, abuse and load suites (test/reliability/*.test.ts) one
// file at a time, then prints every suite's figures as one table.
// Usage: npm run test:reliability [-- name ...]   (SVC_RELIABILITY_PROFILE=full for the long profile)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const wanted = process.argv.slice(2);
const files = readdirSync('test/reliability')
  .filter((f) => f.endsWith('.test.ts') && (wanted.length === 0 || wanted.some((w) => f.includes(w))))
  .sort()
  .map((f) => path.join('test/reliability', f));
if (files.length === 0) {
  console.error('no reliability suite matched');
  process.exit(1);
}
const figures = mkdtempSync(path.join(tmpdir(), 'svc-reliability-'));
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', '--test-timeout=1800000', ...files], {
  stdio: 'inherit',
  env: { ...process.env, NODE_NO_WARNINGS: '1', SVC_RELIABILITY_FIGURES: figures },
});
const rows = readdirSync(figures).map((f) => JSON.parse(readFileSync(path.join(figures, f), 'utf8')));
rmSync(figures, { recursive: true, force: true });
if (rows.length) {
  // One summary row per suite, then each suite's own figures as a two-column table (they differ by suite).
  console.log('\nReliability figures');
  console.table(rows.map(({ suite, checks, failures }) => ({ suite, checks, failures })));
  for (const { suite, checks, failures, ...figures } of rows) {
    console.log(`\n${suite}`);
    console.table(figures);
  }
}
process.exit(result.status ?? 1);
