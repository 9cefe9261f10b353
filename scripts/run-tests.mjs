#!/usr/bin/env node
// Runs every test file with Node's test runner (TypeScript through tsx).
// Usage: node scripts/run-tests.mjs [path-substring ...]
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { RECORDINGS_DIR, beginRecording, e2eTestFiles, finishRecording } from './lib/recorded-responses.mjs';

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
// A run of every end-to-end file records each server response (SVC_RECORD_RESPONSES,
// test-only) for the contract suite, test/reliability/03-contract.test.ts. A
// partial run leaves the last full run's recordings alone.
const e2e = e2eTestFiles();
const recordDir = process.env.SVC_RECORD_RESPONSES || (e2e.every((f) => files.includes(f)) ? RECORDINGS_DIR : '');
const recording = recordDir ? beginRecording(recordDir, files.filter((f) => e2e.includes(f))) : null;
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=300000', ...files],
  { stdio: 'inherit', env: { ...process.env, NODE_NO_WARNINGS: '1', ...(recordDir ? { SVC_RECORD_RESPONSES: recordDir } : {}) } },
);
if (recording) finishRecording(recordDir, recording, result.status);
process.exit(result.status ?? 1);
