import { type Attributes, type HrTime, type Span, SpanStatusCode, type Tracer, context, trace } from '@opentelemetry/api';

/** One exchange of a scripted call. */
export interface Exchange {
  user: string;
  agent: string;
  /** A tool the agent calls before answering. */
  tool?: { name: string; arguments: Record<string, unknown>; output: unknown };
  /** The caller talks over the agent's answer. */
  interrupted?: boolean;
}

const hr = (ms: number): HrTime => [Math.floor(ms / 1000), Math.round((ms % 1000) * 1e6)];

/**
 * Emits the spans a LiveKit Agents worker emits for one call — agent_session,
 * user_turn, agent_turn, llm_request, function_tool, tts_request, with their
 * `lk.*` attributes — on a simulated clock (no waiting), ending now.
 */
export function simulateCall(tracer: Tracer, greeting: string, exchanges: Exchange[], rand: () => number): void {
  const total = 4000 + exchanges.length * 9000;
  let t = Date.now() - total;
  const child = (parent: Span, name: string, start: number, end: number, attributes: Attributes = {}) => {
    const span = tracer.startSpan(name, { startTime: hr(start), attributes }, trace.setSpan(context.active(), parent));
    return { span, end: () => span.end(hr(end)) };
  };
  const session = tracer.startSpan('agent_session', { startTime: hr(t), attributes: { 'lk.agent_name': 'front-desk' } });
  const speak = (turn: Span, text: string, start: number, ttfbS: number, interrupted = false) => {
    const duration = 600 + text.length * 45;
    child(turn, 'tts_request', start, start + duration, { 'lk.input_text': text, 'lk.tts_metrics': JSON.stringify({ ttfb: ttfbS, audio_duration: duration / 1000 }) }).end();
    if (interrupted) turn.setAttribute('lk.interrupted', true);
    return start + (interrupted ? duration / 2 : duration);
  };

  const hello = child(session, 'agent_turn', t + 50, t + 3000);
  t = speak(hello.span, greeting, t + 60, 0.18 + rand() * 0.1);
  hello.span.end(hr(t));
  child(session, 'vad_inference_batch', t, t + 40, { 'vad.frames': 32 }).end();

  for (const ex of exchanges) {
    const userStart = t + 400;
    const userEnd = userStart + 900 + ex.user.length * 40;
    child(session, 'user_turn', userStart, userEnd, { 'lk.user_transcript': ex.user, 'lk.transcript_confidence': 0.94 }).end();
    const turnStart = userEnd + 5;
    const turn = tracer.startSpan('agent_turn', { startTime: hr(turnStart) }, trace.setSpan(context.active(), session));
    let cursor = turnStart + 20;
    if (ex.tool) {
      const ttft = 0.25 + rand() * 0.2;
      child(turn, 'llm_request', cursor, cursor + 600, {
        'gen_ai.request.model': 'gpt-4o-mini',
        'lk.response.function_calls': JSON.stringify([{ name: ex.tool.name }]),
        'lk.llm_metrics': JSON.stringify({ ttft, duration: 0.6 }),
      }).end();
      cursor += 620;
      child(turn, 'function_tool', cursor, cursor + 350, {
        'lk.function_tool.name': ex.tool.name,
        'lk.function_tool.arguments': JSON.stringify(ex.tool.arguments),
        'lk.function_tool.output': JSON.stringify(ex.tool.output),
        'lk.function_tool.is_error': false,
      }).end();
      cursor += 370;
    }
    const ttft = 0.3 + rand() * 0.3;
    child(turn, 'llm_request', cursor, cursor + 900, {
      'gen_ai.request.model': 'gpt-4o-mini',
      'lk.response.text': ex.agent,
      'lk.llm_metrics': JSON.stringify({ ttft, duration: 0.9 }),
    }).end();
    t = speak(turn, ex.agent, cursor + ttft * 1000 + 30, 0.15 + rand() * 0.15, ex.interrupted);
    turn.end(hr(t));
  }
  session.setStatus({ code: SpanStatusCode.OK });
  session.end(hr(t + 300));
}
