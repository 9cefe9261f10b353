// A span decoder thread (see decoder-pool.ts): decodes request bodies it is
// sent and posts back their span columns, the integer buffer transferred.
import { parentPort } from 'node:worker_threads';
import { AppError } from '../http/errors.js';
import { decodeOtlpSpans } from './decode.js';
import type { DecodeReply, DecodeTask } from './decoder-pool.js';

const port = parentPort;
if (!port) throw new Error('decoder-thread.ts runs as a worker thread of SpanDecoderPool');

port.on('message', (task: DecodeTask) => {
  let reply: DecodeReply;
  try {
    const spans = decodeOtlpSpans(task.encoding, { body: Buffer.from(task.body.buffer, task.body.byteOffset, task.body.byteLength), gzip: task.gzip }, task.limit);
    port.postMessage({ id: task.id, spans } satisfies DecodeReply, [spans.fixed]);
    return;
  } catch (err) {
    reply = err instanceof AppError
      ? { id: task.id, refusal: { code: err.code, message: err.message, details: err.details } }
      : { id: task.id, failure: (err as Error)?.message ?? String(err) };
  }
  port.postMessage(reply);
});
