// Where a full end-to-end run leaves the responses its servers recorded
// (SVC_RECORD_RESPONSES), and how the contract suite (test/reliability/03)
// tells whether those recordings describe the code that is built now.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The known directory (git-ignored) that `npm test` records into. */
export const RECORDINGS_DIR = path.join(ROOT, 'tmp', 'recorded-responses');
const MANIFEST = 'manifest.json';

function walk(dir, keep, out = []) {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries.sort()) {
    if (name === 'node_modules') continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full, keep, out);
    else if (keep(name)) out.push(full);
  }
  return out;
}

/** Every end-to-end test file, relative to the repository root. */
export function e2eTestFiles() {
  return walk(path.join(ROOT, 'test/e2e'), (n) => n.endsWith('.test.ts')).map((f) => path.relative(ROOT, f));
}

/**
 * A hash of everything built (every package's compiled JavaScript): recordings
 * made with another build may describe responses the server no longer sends.
 */
export function buildFingerprint() {
  const hash = createHash('sha256');
  for (const pkg of readdirSync(path.join(ROOT, 'packages')).sort()) {
    for (const file of walk(path.join(ROOT, 'packages', pkg, 'dist'), (n) => n.endsWith('.js'))) {
      hash.update(path.relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
    }
  }
  return hash.digest('hex');
}

/** Empties `dir` of earlier recordings and marks a run as started. */
export function beginRecording(dir, files) {
  if (existsSync(dir)) {
    for (const name of readdirSync(dir)) if (name === MANIFEST || /^responses-.*\.jsonl$/.test(name)) rmSync(path.join(dir, name), { force: true });
  }
  mkdirSync(dir, { recursive: true });
  const manifest = { state: 'running', startedAt: new Date().toISOString(), fingerprint: buildFingerprint(), files };
  writeFileSync(path.join(dir, MANIFEST), JSON.stringify(manifest, null, 2));
  return manifest;
}

/** Marks the run as finished (only then are the recordings complete). */
export function finishRecording(dir, manifest, exitCode) {
  writeFileSync(path.join(dir, MANIFEST), JSON.stringify({ ...manifest, state: 'finished', finishedAt: new Date().toISOString(), exitCode }, null, 2));
}

/**
 * Whether `dir` holds the recordings of a finished run of every current
 * end-to-end file against the current build; the reason when it does not.
 */
export function usableRecordings(dir) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(path.join(dir, MANIFEST), 'utf8'));
  } catch {
    return { usable: false, reason: `no manifest in ${dir}` };
  }
  if (manifest.state !== 'finished') return { usable: false, reason: 'the recording run did not finish' };
  const ran = new Set(manifest.files);
  const missing = e2eTestFiles().filter((f) => !ran.has(f));
  if (missing.length) return { usable: false, reason: `the recording run did not include ${missing.join(', ')}` };
  if (manifest.fingerprint !== buildFingerprint()) return { usable: false, reason: 'the build changed since the recording run' };
  const files = readdirSync(dir).filter((n) => /^responses-.*\.jsonl$/.test(n));
  if (files.length === 0) return { usable: false, reason: 'the recording run recorded nothing' };
  return { usable: true, manifest, files: files.map((f) => path.join(dir, f)) };
}
