import { z } from 'zod';

export const StoreReachability = z.enum(['reachable', 'unreachable']);

export const HealthResponse = z
  .strictObject({
    status: z.enum(['ok', 'unavailable']),
    relational: StoreReachability,
    analytics: StoreReachability,
  })
  .meta({ id: 'Health' });
export type HealthResponse = z.infer<typeof HealthResponse>;
