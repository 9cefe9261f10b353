#!/usr/bin/env node
// Refreshes src/otlp/proto/ from the npm packages that ship the official files,
// and checks every vendored file against the sha256 recorded in proto/SOURCES.json.
//
//   node packages/server/scripts/otlp-protos.mjs          # check only (no network)
//   node packages/server/scripts/otlp-protos.mjs --fetch  # re-extract from the pinned packages, then check
//
// opentelemetry-proto at tag v1.4.0 comes from @elastic/mockotlpserver@0.10.0 (which
// carries opentelemetry/proto/ verbatim from that tag); google/rpc/status.proto from
// Google's google-proto-files@5.0.3.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const protoDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../src/otlp/proto');
const manifest = JSON.parse(readFileSync(path.join(protoDir, 'SOURCES.json'), 'utf8'));
const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

if (process.argv.includes('--fetch')) {
  const work = mkdtempSync(path.join(tmpdir(), 'otlp-protos-'));
  try {
    for (const pkg of manifest.packages) {
      const tarball = execFileSync('npm', ['pack', pkg.spec, '--silent', '--pack-destination', work], { encoding: 'utf8' }).trim().split('\n').pop();
      const dest = path.join(work, pkg.spec.replace(/[@/]/g, '_'));
      mkdirSync(dest);
      execFileSync('tar', ['xzf', path.join(work, tarball), '-C', dest]);
      for (const file of pkg.files) {
        mkdirSync(path.dirname(path.join(protoDir, file.path)), { recursive: true });
        copyFileSync(path.join(dest, file.from), path.join(protoDir, file.path));
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

let bad = 0;
for (const pkg of manifest.packages) {
  for (const file of pkg.files) {
    const actual = sha256(path.join(protoDir, file.path));
    if (actual !== file.sha256) {
      bad++;
      console.error(`MISMATCH ${file.path}: ${actual} (expected ${file.sha256} from ${pkg.spec})`);
    }
  }
}
if (bad) process.exit(1);
console.log(`proto files match ${manifest.packages.map((p) => p.spec).join(' and ')}`);
