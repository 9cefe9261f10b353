// A simulated realtime voice worker: each call is a job whose entrypoint
// calls monitor_platform_b(ctx) first, then "talks" (emits the spans a
// LiveKit Agents worker emits). Run against a local svc:
//   SVC_URL=http://127.0.0.1:3100 SVC_API_KEY=svc_sk_... npm run example:voice-worker
import { trace } from '@opentelemetry/api';
import { monitor_platform_b } from '@svc/worker-helper';
import { type Exchange, simulateCall } from './call.js';

const SCRIPTS: Array<{ greeting: string; exchanges: Exchange[] }> = [
  {
    greeting: 'Hi, thanks for calling Acme Dental. How can I help?',
    exchanges: [
      {
        user: 'I would like to book a cleaning next Tuesday.',
        agent: 'Tuesday at 10 am or 2 pm are open. Which works for you?',
        tool: { name: 'check_availability', arguments: { day: 'tuesday', service: 'cleaning' }, output: { slots: ['10:00', '14:00'] } },
      },
      { user: 'Two pm, please.', agent: 'Booked: Tuesday at 2 pm. Anything else?' },
      { user: 'No, that is all.', agent: 'Great, see you Tuesday. Goodbye!' },
    ],
  },
  {
    greeting: 'Acme Dental, this is the front desk.',
    exchanges: [
      { user: 'What are your opening hours on Saturday?', agent: 'On Saturdays we are open from nine to one, and we also', interrupted: true },
      { user: 'Sorry, just until one?', agent: 'Yes, until 1 pm on Saturdays.' },
    ],
  },
];

/** A job context the way voice worker frameworks hand one to an entrypoint. */
function jobContext(n: number) {
  const callbacks: Array<() => Promise<void> | void> = [];
  const room = { name: `call-room-${n}` };
  return {
    ctx: { job: { id: `AJ_${Date.now().toString(36)}_${n}`, room, agentName: 'front-desk' }, room, addShutdownCallback: (cb: () => Promise<void> | void) => void callbacks.push(cb) },
    shutdown: async () => {
      for (const cb of callbacks) await cb();
    },
  };
}

let seed = Number(process.env.SEED ?? 7);
const rand = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;

const calls = Number(process.env.CALLS ?? SCRIPTS.length);
for (let n = 0; n < calls; n++) {
  const { ctx, shutdown } = jobContext(n);
  const monitor = await monitor_platform_b(ctx); // before the agent session starts
  const script = SCRIPTS[n % SCRIPTS.length]!;
  simulateCall(trace.getTracer('livekit-agents'), script.greeting, script.exchanges, rand);
  await shutdown(); // the framework runs shutdown callbacks when the job ends: spans are flushed
  process.stdout.write(JSON.stringify({ call: n, session_id: monitor.sessionId, room: ctx.room.name }) + '\n');
}
