/**
 * A seeded generator (mulberry32) so a failing round can be replayed: the
 * seed is printed and `SVC_RELIABILITY_SEED` sets it.
 */
export function random(name: string): () => number {
  let seed = Number(process.env.SVC_RELIABILITY_SEED ?? Date.now() % 2 ** 31) >>> 0;
  process.stdout.write(`# seed ${name}: ${seed}\n`);
  return () => {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
