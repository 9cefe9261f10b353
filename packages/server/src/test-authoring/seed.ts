import { ensureDefaultPersona, type ProjectScope } from '../personas/repository.js';
import { newId } from '../shared/ids.js';
import type { RelationalStore } from '../storage/sqlite/connection.js';
import { TestWrites } from './writes.js';

/**
 * The documented seeding path for benchmarks and demos: bulk-inserts `count`
 * tests (each at version 1, on the project default persona) in one
 * transaction, through the same statements the API writes with. Run it on a
 * data directory no server is using. Returns the ids in creation order
 * (oldest first), so callers can pick a cursor at any depth.
 */
export function seedTests(store: RelationalStore, scope: ProjectScope, count: number, namePrefix = 'seeded test'): string[] {
  const writes = new TestWrites(store.db);
  const ids: string[] = [];
  store.immediate(() => {
    const at = new Date().toISOString();
    const personaId = ensureDefaultPersona(store.db, scope, at);
    for (let i = 0; i < count; i++) {
      const id = newId('tst_');
      writes.insertTest({
        id,
        versionId: newId('tstv_'),
        organizationId: scope.organizationId,
        projectId: scope.projectId,
        name: `${namePrefix} ${i}`,
        content: {
          scenario: `Caller ${i} asks to change a booking and then asks about the cancellation policy.`,
          expectedBehaviors: ['confirms the change', 'explains the policy'],
          personas: [],
          personaIds: [personaId],
          mockTools: [{ tool: 'booking.update', answer: { ok: true, ref: i }, delay_ms: 100 }],
        },
        at,
      });
      ids.push(id);
    }
  });
  return ids;
}
