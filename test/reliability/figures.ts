import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** One figure of a reliability suite: a count, a duration, a rate, a size. */
export type Figure = string | number;

/**
 * Records a suite's figures for the closing table of `npm run test:reliability`
 * (and prints them, so a suite run on its own shows them too). `checks` is
 * how many distinct assertions the suite made; `failures` how many it found.
 */
export function recordFigures(suite: string, figures: { checks: number; failures: number } & Record<string, Figure>): void {
  process.stdout.write(`# figures ${suite}: ${JSON.stringify(figures)}\n`);
  const dir = process.env.SVC_RELIABILITY_FIGURES;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${suite.replace(/[^a-z0-9-]/gi, '_')}.json`), JSON.stringify({ suite, ...figures }));
}

/** The size of the reliability run: `ci` (default, fits the CI budget) or `full` (longer soak and more rounds). */
export const PROFILE = process.env.SVC_RELIABILITY_PROFILE === 'full' ? 'full' : 'ci';
