import type Koa from 'koa';
import { TRACE_BODY_LIMIT_BYTES, getTrace, ingestTraces } from '@svc/contract';
import type { ConversationRepository } from '../conversations/repository.js';
import { type Route, defineRoute } from '../http/define-route.js';
import { sendError } from '../http/error-middleware.js';
import type { ErrorResponse } from '../http/error-middleware.js';
import { AppError, notFound } from '../http/errors.js';
import { lookupScope, requireWriter } from '../http/principal.js';
import { otlpEncodingOf, readOtlpWire, wantsProtobuf } from '../otlp/body.js';
import type { SpanDecoder } from '../otlp/decoder-pool.js';
import { encodeProtobufResponse, encodeStatus } from '../otlp/encode.js';
import type { SpanRepository } from './repository.js';
import { traceTree } from './tree.js';
import type { SpanWriter } from './writer.js';

/** OTLP's rule: a protobuf request is refused with a protobuf `google.rpc.Status`; a JSON one with the error body. */
function renderOtlpRefusal(ctx: Koa.Context, refusal: ErrorResponse): void {
  if (!wantsProtobuf(ctx)) return sendError(ctx, refusal.status, refusal.body, refusal.headers);
  ctx.status = refusal.status;
  for (const [name, value] of Object.entries(refusal.headers)) ctx.set(name, value);
  ctx.type = 'application/x-protobuf';
  ctx.body = encodeStatus(refusal.status, refusal.body.error, refusal.body.message);
}

/** `POST /v1/traces` (OTLP/HTTP) and `GET /api/traces/:traceId`. */
export function traceRoutes(deps: { writer: SpanWriter; decoder: SpanDecoder; spans: SpanRepository; conversations: ConversationRepository }): Route[] {
  return [
    defineRoute(
      ingestTraces,
      async ({ principal, ctx }) => {
        if (!principal.projectId) {
          throw new AppError('not_permitted', 'Trace ingest needs a project-scoped API key; an organization-wide key cannot send spans (create one with a project id).');
        }
        requireWriter(principal); // spans become production conversations: a write, which viewers never make
        const encoding = otlpEncodingOf(ctx.get('content-type'));
        const spans = await deps.decoder.decode(encoding, await readOtlpWire(ctx, TRACE_BODY_LIMIT_BYTES), TRACE_BODY_LIMIT_BYTES);
        const { rejected, errorMessage } = spans;
        await deps.writer.write({ organizationId: principal.organizationId, projectId: principal.projectId, spans });
        if (encoding === 'json') return rejected ? { partialSuccess: { rejectedSpans: String(rejected), errorMessage } } : {};
        ctx.status = 200;
        ctx.type = 'application/x-protobuf';
        ctx.body = encodeProtobufResponse(rejected, errorMessage);
        return undefined as never;
      },
      { renderError: renderOtlpRefusal },
    ),
    defineRoute(getTrace, async ({ principal, params }) => {
      const traceId = params.traceId.toLowerCase();
      if (!/^[0-9a-f]{32}$/.test(traceId)) throw notFound('trace');
      const spans = await deps.spans.trace(lookupScope(principal), traceId);
      if (spans.length === 0) throw notFound('trace');
      const conversationId = await deps.conversations.findIdByTrace(spans[0]!.projectId, traceId);
      return traceTree(traceId, spans, conversationId);
    }),
  ];
}
