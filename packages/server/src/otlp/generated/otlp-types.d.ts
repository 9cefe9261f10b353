import * as $protobuf from "protobufjs";
import Long = require("long");
export namespace opentelemetry {

    namespace proto {

        namespace collector {

            namespace trace {

                namespace v1 {

                    interface IExportTraceServiceRequest {
                        resourceSpans?: (opentelemetry.proto.trace.v1.IResourceSpans[]|null);
                    }

                    class ExportTraceServiceRequest implements IExportTraceServiceRequest {
                        constructor(properties?: opentelemetry.proto.collector.trace.v1.IExportTraceServiceRequest);
                        public resourceSpans: opentelemetry.proto.trace.v1.IResourceSpans[];
                        public static create(properties?: opentelemetry.proto.collector.trace.v1.IExportTraceServiceRequest): opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
                        public static encode(message: opentelemetry.proto.collector.trace.v1.IExportTraceServiceRequest, writer?: $protobuf.Writer): $protobuf.Writer;
                        public static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
                    }

                    interface IExportTraceServiceResponse {
                        partialSuccess?: (opentelemetry.proto.collector.trace.v1.IExportTracePartialSuccess|null);
                    }

                    class ExportTraceServiceResponse implements IExportTraceServiceResponse {
                        constructor(properties?: opentelemetry.proto.collector.trace.v1.IExportTraceServiceResponse);
                        public partialSuccess?: (opentelemetry.proto.collector.trace.v1.IExportTracePartialSuccess|null);
                        public static create(properties?: opentelemetry.proto.collector.trace.v1.IExportTraceServiceResponse): opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
                        public static encode(message: opentelemetry.proto.collector.trace.v1.IExportTraceServiceResponse, writer?: $protobuf.Writer): $protobuf.Writer;
                        public static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
                    }

                    interface IExportTracePartialSuccess {
                        rejectedSpans?: (Long|null);
                        errorMessage?: (string|null);
                    }

                    class ExportTracePartialSuccess implements IExportTracePartialSuccess {
                        constructor(properties?: opentelemetry.proto.collector.trace.v1.IExportTracePartialSuccess);
                        public rejectedSpans: Long;
                        public errorMessage: string;
                        public static create(properties?: opentelemetry.proto.collector.trace.v1.IExportTracePartialSuccess): opentelemetry.proto.collector.trace.v1.ExportTracePartialSuccess;
                        public static encode(message: opentelemetry.proto.collector.trace.v1.IExportTracePartialSuccess, writer?: $protobuf.Writer): $protobuf.Writer;
                        public static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): opentelemetry.proto.collector.trace.v1.ExportTracePartialSuccess;
                    }
                }
            }
        }

        namespace trace {

            namespace v1 {

                interface ITracesData {
                    resourceSpans?: (opentelemetry.proto.trace.v1.IResourceSpans[]|null);
                }

                class TracesData implements ITracesData {
                    constructor(properties?: opentelemetry.proto.trace.v1.ITracesData);
                    public resourceSpans: opentelemetry.proto.trace.v1.IResourceSpans[];
                    public static create(properties?: opentelemetry.proto.trace.v1.ITracesData): opentelemetry.proto.trace.v1.TracesData;
                    public static encode(message: opentelemetry.proto.trace.v1.ITracesData, writer?: $protobuf.Writer): $protobuf.Writer;
                    public static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): opentelemetry.proto.trace.v1.TracesData;
                }

                interface IResourceSpans {
                    resource?: (opentelemetry.proto.resource.v1.IResource|null);
                    scopeSpans?: (opentelemetry.proto.trace.v1.IScopeSpans[]|null);
                    schemaUrl?: (string|null);
                }

                class ResourceSpans implements IResourceSpans {
                    constructor(properties?: opentelemetry.proto.trace.v1.IResourceSpans);
                    public resource?: (opentelemetry.proto.resource.v1.IResource|null);
                    public scopeSpans: opentelemetry.proto.trace.v1.IScopeSpans[];
                    public schemaUrl: string;
                    public static create(properties?: opentelemetry.proto.trace.v1.IResourceSpans): opentelemetry.proto.trace.v1.ResourceSpans;
                    public static encode(message: opentelemetry.proto.trace.v1.IResourceSpans, writer?: $protobuf.Writer): $protobuf.Writer;
                    public static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): opentelemetry.proto.trace.v1.ResourceSpans;
                }

                interface IScopeSpans {
                    scope?: (opentelemetry.proto.common.v1.IInstrumentationScope|null);
                    spans?: (opentelemetry.proto.trace.v1.ISpan[]|null);
                    schemaUrl?: (string|null);
                }

                class ScopeSpans implements IScopeSpans {
                    constructor(properties?: opentelemetry.proto.trace.v1.IScopeSpans);
                    public scope?: (opentelemetry.proto.common.v1.IInstrumentationScope|null);
                    public spans: opentelemetry.proto.trace.v1.ISpan[];
                    public schemaUrl: string;
                    public static create(properties?: opentelemetry.proto.trace.v1.IScopeSpans): opentelemetry.proto.trace.v1.ScopeSpans;
                    public static encode(message: opentelemetry.proto.trace.v1.IScopeSpans, writer?: $protobuf.Writer): $protobuf.Writer;
                    public static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): opentelemetry.proto.trace.v1.ScopeSpans;
                }

                interface ISpan {
                    traceId?: (Uint8Array|null);
                    spanId?: (Uint8Array|null);
                    traceState?: (string|null);
                    parentSpanId?: (Uint8Array|null);
                    flags?: (number|null);
                    name?: (string|null);
                    kind?: (opentelemetry.proto.trace.v1.Span.SpanKind|null);
                    startTimeUnixNano?: (Long|null);
                    endTimeUnixNano?: (Long|null);
                    attributes?: (opentelemetry.proto.common.v1.IKeyValue[]|null);
                    droppedAttributesCount?: (number|null);
                    events?: (opentelemetry.proto.trace.v1.Span.IEvent[]|null);
                    droppedEventsCount?: (number|null);
                    links?: (opentelemetry.proto.trace.v1.Span.ILink[]|null);
                    droppedLinksCount?: (number|null);
                    status?: (opentelemetry.proto.trace.v1.IStatus|null);
                }

                class Span implements ISpan {
                    constructor(properties?: opentelemetry.proto.trace.v1.ISpan);
                    public traceId: Uint8Array;
                    public spanId: Uint8Array;
                    public traceState: string;
                    public parentSpanId: Uint8Array;
                    public flags: number;
                    public name: string;
                    public kind: opentelemetry.proto.trace.v1.Span.SpanKind;
                    public startTimeUnixNano: Long;
                    public endTimeUnixNano: Long;
                    public attributes: opentelemetry.proto.common.v1.IKeyValue[];
                    public droppedAttributesCount: number;
                    public events: opentelemetry.proto.trace.v1.Span.IEvent[];
                    public droppedEventsCount: number;
                    public links: opentelemetry.proto.trace.v1.Span.ILink[];
                    public droppedLinksCount: number;
                    public status?: (opentelemetry.proto.trace.v1.IStatus|null);
                    public static create(properties?: opentelemetry.proto.trace.v1.ISpan): opentelemetry.proto.trace.v1.Span;
                    public static encode(message: opentelemetry.proto.trace.v1.ISpan, writer?: $protobuf.Writer): $protobuf.Writer;
                    public static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): opentelemetry.proto.trace.v1.Span;
                }

                namespace Span {

                    enum SpanKind {
                        SPAN_KIND_UNSPECIFIED = 0,
                        SPAN_KIND_INTERNAL = 1,
                        SPAN_KIND_SERVER = 2,
                        SPAN_KIND_CLIENT = 3,
                        SPAN_KIND_PRODUCER = 4,
                        SPAN_KIND_CONSUMER = 5
                    }

                    interface IEvent {
                        timeUnixNano?: (Long|null);
                        name?: (string|null);
                        attributes?: (opentelemetry.proto.common.v1.IKeyValue[]|null);
                        droppedAttributesCount?: (number|null);
                    }

                    class Event implements IEvent {
                        constructor(properties?: opentelemetry.proto.trace.v1.Span.IEvent);
                        public timeUnixNano: Long;
                        public name: string;
                        public attributes: opentelemetry.proto.common.v1.IKeyValue[];
                        public droppedAttributesCount: number;
                        public static create(properties?: opentelemetry.proto.trace.v1.Span.IEvent): opentelemetry.proto.trace.v1.Span.Event;
                        public static encode(message: opentelemetry.proto.trace.v1.Span.IEvent, writer?: $protobuf.Writer): $protobuf.Writer;
                        public static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): opentelemetry.proto.trace.v1.Span.Event;
                    }

                    interface ILink {
                        traceId?: (Uint8Array|null);
                        spanId?: (Uint8Array|null);
                        traceState?: (string|null);
                        attributes?: (opentelemetry.proto.common.v1.IKeyValue[]|null);
                        droppedAttributesCount?: (number|null);
                        flags?: (number|null);
                    }

                    class Link implements ILink {
                        constructor(properties?: opentelemetry.proto.trace.v1.Span.ILink);
                        public traceId: Uint8Array;
                        public spanId: Uint8Array;
                        public traceState: string;
                        public attributes: opentelemetry.proto.common.v1.IKeyValue[];
                        public droppedAttributesCount: number;
                        public flags: number;
                        public static create(properties?: opentelemetry.proto.trace.v1.Span.ILink): opentelemetry.proto.trace.v1.Span.Link;
                        public static encode(message: opentelemetry.proto.trace.v1.Span.ILink, writer?: $protobuf.Writer): $protobuf.Writer;
                        public static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): opentelemetry.proto.trace.v1.Span.Link;
                    }
                }

                interface IStatus {
                    message?: (string|null);
                    code?: (opentelemetry.proto.trace.v1.Status.StatusCode|null);
                }

                class Status implements IStatus {
                    constructor(properties?: opentelemetry.proto.trace.v1.IStatus);
                    public message: string;
                    public code: opentelemetry.proto.trace.v1.Status.StatusCode;
                    public static create(properties?: opentelemetry.proto.trace.v1.IStatus): opentelemetry.proto.trace.v1.Status;
                    public static encode(message: opentelemetry.proto.trace.v1.IStatus, writer?: $protobuf.Writer): $protobuf.Writer;
                    public static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): opentelemetry.proto.trace.v1.Status;
                }

                namespace Status {

                    enum StatusCode {
                        STATUS_CODE_UNSET = 0,
                        STATUS_CODE_OK = 1,
                        STATUS_CODE_ERROR = 2
                    }
                }

                enum SpanFlags {
                    SPAN_FLAGS_DO_NOT_USE = 0,
                    SPAN_FLAGS_TRACE_FLAGS_MASK = 255,
                    SPAN_FLAGS_CONTEXT_HAS_IS_REMOTE_MASK = 256,
                    SPAN_FLAGS_CONTEXT_IS_REMOTE_MASK = 512
                }
            }
        }

        namespace common {

            namespace v1 {

                interface IAnyValue {
                    stringValue?: (string|null);
                    boolValue?: (boolean|null);
                    intValue?: (Long|null);
                    doubleValue?: (number|null);
                    arrayValue?: (opentelemetry.proto.common.v1.IArrayValue|null);
                    kvlistValue?: (opentelemetry.proto.common.v1.IKeyValueList|null);
                    bytesValue?: (Uint8Array|null);
                }

                class AnyValue implements IAnyValue {
                    constructor(properties?: opentelemetry.proto.common.v1.IAnyValue);
                    public stringValue?: (string|null);
                    public boolValue?: (boolean|null);
                    public intValue?: (Long|null);
                    public doubleValue?: (number|null);
                    public arrayValue?: (opentelemetry.proto.common.v1.IArrayValue|null);
                    public kvlistValue?: (opentelemetry.proto.common.v1.IKeyValueList|null);
                    public bytesValue?: (Uint8Array|null);
                    public value?: ("stringValue"|"boolValue"|"intValue"|"doubleValue"|"arrayValue"|"kvlistValue"|"bytesValue");
                    public static create(properties?: opentelemetry.proto.common.v1.IAnyValue): opentelemetry.proto.common.v1.AnyValue;
                    public static encode(message: opentelemetry.proto.common.v1.IAnyValue, writer?: $protobuf.Writer): $protobuf.Writer;
                    public static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): opentelemetry.proto.common.v1.AnyValue;
                }

                interface IArrayValue {
                    values?: (opentelemetry.proto.common.v1.IAnyValue[]|null);
                }

                class ArrayValue implements IArrayValue {
                    constructor(properties?: opentelemetry.proto.common.v1.IArrayValue);
                    public values: opentelemetry.proto.common.v1.IAnyValue[];
                    public static create(properties?: opentelemetry.proto.common.v1.IArrayValue): opentelemetry.proto.common.v1.ArrayValue;
                    public static encode(message: opentelemetry.proto.common.v1.IArrayValue, writer?: $protobuf.Writer): $protobuf.Writer;
                    public static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): opentelemetry.proto.common.v1.ArrayValue;
                }

                interface IKeyValueList {
                    values?: (opentelemetry.proto.common.v1.IKeyValue[]|null);
                }

                class KeyValueList implements IKeyValueList {
                    constructor(properties?: opentelemetry.proto.common.v1.IKeyValueList);
                    public values: opentelemetry.proto.common.v1.IKeyValue[];
                    public static create(properties?: opentelemetry.proto.common.v1.IKeyValueList): opentelemetry.proto.common.v1.KeyValueList;
                    public static encode(message: opentelemetry.proto.common.v1.IKeyValueList, writer?: $protobuf.Writer): $protobuf.Writer;
                    public static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): opentelemetry.proto.common.v1.KeyValueList;
                }

                interface IKeyValue {
                    key?: (string|null);
                    value?: (opentelemetry.proto.common.v1.IAnyValue|null);
                }

                class KeyValue implements IKeyValue {
                    constructor(properties?: opentelemetry.proto.common.v1.IKeyValue);
                    public key: string;
                    public value?: (opentelemetry.proto.common.v1.IAnyValue|null);
                    public static create(properties?: opentelemetry.proto.common.v1.IKeyValue): opentelemetry.proto.common.v1.KeyValue;
                    public static encode(message: opentelemetry.proto.common.v1.IKeyValue, writer?: $protobuf.Writer): $protobuf.Writer;
                    public static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): opentelemetry.proto.common.v1.KeyValue;
                }

                interface IInstrumentationScope {
                    name?: (string|null);
                    version?: (string|null);
                    attributes?: (opentelemetry.proto.common.v1.IKeyValue[]|null);
                    droppedAttributesCount?: (number|null);
                }

                class InstrumentationScope implements IInstrumentationScope {
                    constructor(properties?: opentelemetry.proto.common.v1.IInstrumentationScope);
                    public name: string;
                    public version: string;
                    public attributes: opentelemetry.proto.common.v1.IKeyValue[];
                    public droppedAttributesCount: number;
                    public static create(properties?: opentelemetry.proto.common.v1.IInstrumentationScope): opentelemetry.proto.common.v1.InstrumentationScope;
                    public static encode(message: opentelemetry.proto.common.v1.IInstrumentationScope, writer?: $protobuf.Writer): $protobuf.Writer;
                    public static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): opentelemetry.proto.common.v1.InstrumentationScope;
                }
            }
        }

        namespace resource {

            namespace v1 {

                interface IResource {
                    attributes?: (opentelemetry.proto.common.v1.IKeyValue[]|null);
                    droppedAttributesCount?: (number|null);
                }

                class Resource implements IResource {
                    constructor(properties?: opentelemetry.proto.resource.v1.IResource);
                    public attributes: opentelemetry.proto.common.v1.IKeyValue[];
                    public droppedAttributesCount: number;
                    public static create(properties?: opentelemetry.proto.resource.v1.IResource): opentelemetry.proto.resource.v1.Resource;
                    public static encode(message: opentelemetry.proto.resource.v1.IResource, writer?: $protobuf.Writer): $protobuf.Writer;
                    public static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): opentelemetry.proto.resource.v1.Resource;
                }
            }
        }
    }
}

export namespace google {

    namespace protobuf {

        interface IAny {
            type_url?: (string|null);
            value?: (Uint8Array|null);
        }

        class Any implements IAny {
            constructor(properties?: google.protobuf.IAny);
            public type_url: string;
            public value: Uint8Array;
            public static create(properties?: google.protobuf.IAny): google.protobuf.Any;
            public static encode(message: google.protobuf.IAny, writer?: $protobuf.Writer): $protobuf.Writer;
            public static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): google.protobuf.Any;
        }
    }

    namespace rpc {

        interface IStatus {
            code?: (number|null);
            message?: (string|null);
            details?: (google.protobuf.IAny[]|null);
        }

        class Status implements IStatus {
            constructor(properties?: google.rpc.IStatus);
            public code: number;
            public message: string;
            public details: google.protobuf.IAny[];
            public static create(properties?: google.rpc.IStatus): google.rpc.Status;
            public static encode(message: google.rpc.IStatus, writer?: $protobuf.Writer): $protobuf.Writer;
            public static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): google.rpc.Status;
        }
    }
}
