import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

/** One endpoint's figures over a load window. */
export interface EndpointFigures {
  endpoint: string;
  requests: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  rate_limited: number;
  errors: number;
}

/**
 * Latencies and outcomes per endpoint. An error is any answer that is not
 * the one the workload expects (a 5xx, an unexpected 4xx, no answer); a 429
 * is counted apart: it is the rate limit doing its job.
 */
export class LoadStats {
  private readonly latencies = new Map<string, number[]>();
  private readonly limited = new Map<string, number>();
  /** Every error as `endpoint status detail`, for the report. */
  readonly errors: string[] = [];

  record(endpoint: string, ms: number, outcome: 'ok' | 'rate_limited' | { error: string }): void {
    const list = this.latencies.get(endpoint) ?? [];
    list.push(ms);
    this.latencies.set(endpoint, list);
    if (outcome === 'rate_limited') this.limited.set(endpoint, (this.limited.get(endpoint) ?? 0) + 1);
    else if (outcome !== 'ok') this.errors.push(`${endpoint} ${outcome.error}`);
  }

  get requests(): number {
    let n = 0;
    for (const list of this.latencies.values()) n += list.length;
    return n;
  }

  get rateLimited(): number {
    let n = 0;
    for (const v of this.limited.values()) n += v;
    return n;
  }

  /** p50/p99/max per endpoint, busiest first. */
  table(): EndpointFigures[] {
    return [...this.latencies]
      .map(([endpoint, list]) => {
        const sorted = [...list].sort((a, b) => a - b);
        const at = (q: number) => round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);
        return {
          endpoint,
          requests: list.length,
          p50_ms: at(0.5),
          p99_ms: at(0.99),
          max_ms: round(sorted.at(-1)!),
          rate_limited: this.limited.get(endpoint) ?? 0,
          errors: this.errors.filter((e) => e.startsWith(`${endpoint} `)).length,
        };
      })
      .sort((a, b) => b.requests - a.requests);
  }
}

const round = (ms: number) => Math.round(ms * 10) / 10;

/** Resident set size of a process in MiB (Linux /proc, else `ps`). */
export function rssMiB(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
    if (line) return Math.round(Number(line.replace(/\D+/g, '')) / 1024);
  } catch {
    /* not Linux: ask ps */
  }
  return Math.round(Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim()) / 1024);
}
