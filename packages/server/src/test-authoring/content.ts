import { createHash } from 'node:crypto';
import type { MockTool } from '@svc/contract';

/** What a version freezes. Names are not versioned. */
export interface TestContent {
  scenario: string;
  expectedBehaviors: string[];
  /** Persona references as the client wrote them; `[]` is the project default. */
  personas: string[];
  /** The persona ids those references resolved to when the version was minted. */
  personaIds: string[];
  mockTools: MockTool[];
}

/** JSON with object keys sorted at every depth, so equal values always serialize alike. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The identity of a version's content: SHA-256 of the canonical JSON of
 * scenario, behaviors, personas (as written and as resolved) and mock tools.
 * Two edits with the same hash are the same content, so nothing is minted.
 */
export function contentHash(c: TestContent): string {
  const canonical = canonicalJson({
    scenario: c.scenario,
    expected_behaviors: c.expectedBehaviors,
    personas: c.personas,
    persona_ids: c.personaIds,
    mock_tools: c.mockTools,
  });
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}
