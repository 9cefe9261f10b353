import * as $protobuf from "protobufjs";
import Long = require("long");

export namespace opentelemetry {

    namespace proto {

        namespace collector {

            namespace trace {

                namespace v1 {

                    interface IExportTraceServiceRequest extends opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest.$Properties {
                    }

                    class ExportTraceServiceRequest {
                        constructor(properties?: opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest.$Properties);
                        $unknowns?: Uint8Array[];
                        resourceSpans: opentelemetry.proto.trace.v1.ResourceSpans.$Properties[];
                        static create(properties: opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest.$Shape): opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest & opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest.$Shape;
                        static create(properties?: opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest.$Properties): opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
                        static encode(message: opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
                        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest & opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest.$Shape;
                    }

                    namespace ExportTraceServiceRequest {
                        interface $Properties {
                            resourceSpans?: (opentelemetry.proto.trace.v1.ResourceSpans.$Properties[]|null);
                            $unknowns?: Uint8Array[];
                        }
                        type $Shape = {
                          resourceSpans?: opentelemetry.proto.trace.v1.ResourceSpans.$Shape[]|null;
                          $unknowns?: Uint8Array[];
                        };
                    }

                    interface IExportTraceServiceResponse extends opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse.$Properties {
                    }

                    class ExportTraceServiceResponse {
                        constructor(properties?: opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse.$Properties);
                        $unknowns?: Uint8Array[];
                        partialSuccess?: (opentelemetry.proto.collector.trace.v1.ExportTracePartialSuccess.$Properties|null);
                        static create(properties: opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse.$Shape): opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse & opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse.$Shape;
                        static create(properties?: opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse.$Properties): opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
                        static encode(message: opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
                        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse & opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse.$Shape;
                    }

                    namespace ExportTraceServiceResponse {
                        interface $Properties {
                            partialSuccess?: (opentelemetry.proto.collector.trace.v1.ExportTracePartialSuccess.$Properties|null);
                            $unknowns?: Uint8Array[];
                        }
                        type $Shape = opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse.$Properties;
                    }

                    interface IExportTracePartialSuccess extends opentelemetry.proto.collector.trace.v1.ExportTracePartialSuccess.$Properties {
                    }

                    class ExportTracePartialSuccess {
                        constructor(properties?: opentelemetry.proto.collector.trace.v1.ExportTracePartialSuccess.$Properties);
                        $unknowns?: Uint8Array[];
                        rejectedSpans: Long;
                        errorMessage: string;
                        static create(properties: opentelemetry.proto.collector.trace.v1.ExportTracePartialSuccess.$Shape): opentelemetry.proto.collector.trace.v1.ExportTracePartialSuccess & opentelemetry.proto.collector.trace.v1.ExportTracePartialSuccess.$Shape;
                        static create(properties?: opentelemetry.proto.collector.trace.v1.ExportTracePartialSuccess.$Properties): opentelemetry.proto.collector.trace.v1.ExportTracePartialSuccess;
                        static encode(message: opentelemetry.proto.collector.trace.v1.ExportTracePartialSuccess.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
                        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): opentelemetry.proto.collector.trace.v1.ExportTracePartialSuccess & opentelemetry.proto.collector.trace.v1.ExportTracePartialSuccess.$Shape;
                    }

                    namespace ExportTracePartialSuccess {
                        interface $Properties {
                            rejectedSpans?: (Long|null);
                            errorMessage?: (string|null);
                            $unknowns?: Uint8Array[];
                        }
                        type $Shape = opentelemetry.proto.collector.trace.v1.ExportTracePartialSuccess.$Properties;
                    }
                }
            }
        }

        namespace trace {

            namespace v1 {

                interface ITracesData extends opentelemetry.proto.trace.v1.TracesData.$Properties {
                }

                class TracesData {
                    constructor(properties?: opentelemetry.proto.trace.v1.TracesData.$Properties);
                    $unknowns?: Uint8Array[];
                    resourceSpans: opentelemetry.proto.trace.v1.ResourceSpans.$Properties[];
                    static create(properties: opentelemetry.proto.trace.v1.TracesData.$Shape): opentelemetry.proto.trace.v1.TracesData & opentelemetry.proto.trace.v1.TracesData.$Shape;
                    static create(properties?: opentelemetry.proto.trace.v1.TracesData.$Properties): opentelemetry.proto.trace.v1.TracesData;
                    static encode(message: opentelemetry.proto.trace.v1.TracesData.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
                    static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): opentelemetry.proto.trace.v1.TracesData & opentelemetry.proto.trace.v1.TracesData.$Shape;
                }

                namespace TracesData {
                    interface $Properties {
                        resourceSpans?: (opentelemetry.proto.trace.v1.ResourceSpans.$Properties[]|null);
                        $unknowns?: Uint8Array[];
                    }
                    type $Shape = {
                      resourceSpans?: opentelemetry.proto.trace.v1.ResourceSpans.$Shape[]|null;
                      $unknowns?: Uint8Array[];
                    };
                }

                interface IResourceSpans extends opentelemetry.proto.trace.v1.ResourceSpans.$Properties {
                }

                class ResourceSpans {
                    constructor(properties?: opentelemetry.proto.trace.v1.ResourceSpans.$Properties);
                    $unknowns?: Uint8Array[];
                    resource?: (opentelemetry.proto.resource.v1.Resource.$Properties|null);
                    scopeSpans: opentelemetry.proto.trace.v1.ScopeSpans.$Properties[];
                    schemaUrl: string;
                    static create(properties: opentelemetry.proto.trace.v1.ResourceSpans.$Shape): opentelemetry.proto.trace.v1.ResourceSpans & opentelemetry.proto.trace.v1.ResourceSpans.$Shape;
                    static create(properties?: opentelemetry.proto.trace.v1.ResourceSpans.$Properties): opentelemetry.proto.trace.v1.ResourceSpans;
                    static encode(message: opentelemetry.proto.trace.v1.ResourceSpans.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
                    static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): opentelemetry.proto.trace.v1.ResourceSpans & opentelemetry.proto.trace.v1.ResourceSpans.$Shape;
                }

                namespace ResourceSpans {
                    interface $Properties {
                        resource?: (opentelemetry.proto.resource.v1.Resource.$Properties|null);
                        scopeSpans?: (opentelemetry.proto.trace.v1.ScopeSpans.$Properties[]|null);
                        schemaUrl?: (string|null);
                        $unknowns?: Uint8Array[];
                    }
                    type $Shape = {
                      resource?: opentelemetry.proto.resource.v1.Resource.$Shape|null;
                      scopeSpans?: opentelemetry.proto.trace.v1.ScopeSpans.$Shape[]|null;
                      schemaUrl?: string|null;
                      $unknowns?: Uint8Array[];
                    };
                }

                interface IScopeSpans extends opentelemetry.proto.trace.v1.ScopeSpans.$Properties {
                }

                class ScopeSpans {
                    constructor(properties?: opentelemetry.proto.trace.v1.ScopeSpans.$Properties);
                    $unknowns?: Uint8Array[];
                    scope?: (opentelemetry.proto.common.v1.InstrumentationScope.$Properties|null);
                    spans: opentelemetry.proto.trace.v1.Span.$Properties[];
                    schemaUrl: string;
                    static create(properties: opentelemetry.proto.trace.v1.ScopeSpans.$Shape): opentelemetry.proto.trace.v1.ScopeSpans & opentelemetry.proto.trace.v1.ScopeSpans.$Shape;
                    static create(properties?: opentelemetry.proto.trace.v1.ScopeSpans.$Properties): opentelemetry.proto.trace.v1.ScopeSpans;
                    static encode(message: opentelemetry.proto.trace.v1.ScopeSpans.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
                    static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): opentelemetry.proto.trace.v1.ScopeSpans & opentelemetry.proto.trace.v1.ScopeSpans.$Shape;
                }

                namespace ScopeSpans {
                    interface $Properties {
                        scope?: (opentelemetry.proto.common.v1.InstrumentationScope.$Properties|null);
                        spans?: (opentelemetry.proto.trace.v1.Span.$Properties[]|null);
                        schemaUrl?: (string|null);
                        $unknowns?: Uint8Array[];
                    }
                    type $Shape = {
                      scope?: opentelemetry.proto.common.v1.InstrumentationScope.$Shape|null;
                      spans?: opentelemetry.proto.trace.v1.Span.$Shape[]|null;
                      schemaUrl?: string|null;
                      $unknowns?: Uint8Array[];
                    };
                }

                interface ISpan extends opentelemetry.proto.trace.v1.Span.$Properties {
                }

                class Span {
                    constructor(properties?: opentelemetry.proto.trace.v1.Span.$Properties);
                    $unknowns?: Uint8Array[];
                    traceId: Uint8Array;
                    spanId: Uint8Array;
                    traceState: string;
                    parentSpanId: Uint8Array;
                    flags: number;
                    name: string;
                    kind: opentelemetry.proto.trace.v1.Span.SpanKind;
                    startTimeUnixNano: Long;
                    endTimeUnixNano: Long;
                    attributes: opentelemetry.proto.common.v1.KeyValue.$Properties[];
                    droppedAttributesCount: number;
                    events: opentelemetry.proto.trace.v1.Span.Event.$Properties[];
                    droppedEventsCount: number;
                    links: opentelemetry.proto.trace.v1.Span.Link.$Properties[];
                    droppedLinksCount: number;
                    status?: (opentelemetry.proto.trace.v1.Status.$Properties|null);
                    static create(properties: opentelemetry.proto.trace.v1.Span.$Shape): opentelemetry.proto.trace.v1.Span & opentelemetry.proto.trace.v1.Span.$Shape;
                    static create(properties?: opentelemetry.proto.trace.v1.Span.$Properties): opentelemetry.proto.trace.v1.Span;
                    static encode(message: opentelemetry.proto.trace.v1.Span.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
                    static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): opentelemetry.proto.trace.v1.Span & opentelemetry.proto.trace.v1.Span.$Shape;
                }

                namespace Span {
                    interface $Properties {
                        traceId?: (Uint8Array|null);
                        spanId?: (Uint8Array|null);
                        traceState?: (string|null);
                        parentSpanId?: (Uint8Array|null);
                        flags?: (number|null);
                        name?: (string|null);
                        kind?: (opentelemetry.proto.trace.v1.Span.SpanKind|null);
                        startTimeUnixNano?: (Long|null);
                        endTimeUnixNano?: (Long|null);
                        attributes?: (opentelemetry.proto.common.v1.KeyValue.$Properties[]|null);
                        droppedAttributesCount?: (number|null);
                        events?: (opentelemetry.proto.trace.v1.Span.Event.$Properties[]|null);
                        droppedEventsCount?: (number|null);
                        links?: (opentelemetry.proto.trace.v1.Span.Link.$Properties[]|null);
                        droppedLinksCount?: (number|null);
                        status?: (opentelemetry.proto.trace.v1.Status.$Properties|null);
                        $unknowns?: Uint8Array[];
                    }
                    type $Shape = {
                      traceId?: Uint8Array|null;
                      spanId?: Uint8Array|null;
                      traceState?: string|null;
                      parentSpanId?: Uint8Array|null;
                      flags?: number|null;
                      name?: string|null;
                      kind?: opentelemetry.proto.trace.v1.Span.SpanKind|null;
                      startTimeUnixNano?: Long|null;
                      endTimeUnixNano?: Long|null;
                      attributes?: opentelemetry.proto.common.v1.KeyValue.$Shape[]|null;
                      droppedAttributesCount?: number|null;
                      events?: opentelemetry.proto.trace.v1.Span.Event.$Shape[]|null;
                      droppedEventsCount?: number|null;
                      links?: opentelemetry.proto.trace.v1.Span.Link.$Shape[]|null;
                      droppedLinksCount?: number|null;
                      status?: opentelemetry.proto.trace.v1.Status.$Shape|null;
                      $unknowns?: Uint8Array[];
                    };

                    enum SpanKind {
                        SPAN_KIND_UNSPECIFIED = 0,
                        SPAN_KIND_INTERNAL = 1,
                        SPAN_KIND_SERVER = 2,
                        SPAN_KIND_CLIENT = 3,
                        SPAN_KIND_PRODUCER = 4,
                        SPAN_KIND_CONSUMER = 5
                    }

                    interface IEvent extends opentelemetry.proto.trace.v1.Span.Event.$Properties {
                    }

                    class Event {
                        constructor(properties?: opentelemetry.proto.trace.v1.Span.Event.$Properties);
                        $unknowns?: Uint8Array[];
                        timeUnixNano: Long;
                        name: string;
                        attributes: opentelemetry.proto.common.v1.KeyValue.$Properties[];
                        droppedAttributesCount: number;
                        static create(properties: opentelemetry.proto.trace.v1.Span.Event.$Shape): opentelemetry.proto.trace.v1.Span.Event & opentelemetry.proto.trace.v1.Span.Event.$Shape;
                        static create(properties?: opentelemetry.proto.trace.v1.Span.Event.$Properties): opentelemetry.proto.trace.v1.Span.Event;
                        static encode(message: opentelemetry.proto.trace.v1.Span.Event.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
                        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): opentelemetry.proto.trace.v1.Span.Event & opentelemetry.proto.trace.v1.Span.Event.$Shape;
                    }

                    namespace Event {
                        interface $Properties {
                            timeUnixNano?: (Long|null);
                            name?: (string|null);
                            attributes?: (opentelemetry.proto.common.v1.KeyValue.$Properties[]|null);
                            droppedAttributesCount?: (number|null);
                            $unknowns?: Uint8Array[];
                        }
                        type $Shape = {
                          timeUnixNano?: Long|null;
                          name?: string|null;
                          attributes?: opentelemetry.proto.common.v1.KeyValue.$Shape[]|null;
                          droppedAttributesCount?: number|null;
                          $unknowns?: Uint8Array[];
                        };
                    }

                    interface ILink extends opentelemetry.proto.trace.v1.Span.Link.$Properties {
                    }

                    class Link {
                        constructor(properties?: opentelemetry.proto.trace.v1.Span.Link.$Properties);
                        $unknowns?: Uint8Array[];
                        traceId: Uint8Array;
                        spanId: Uint8Array;
                        traceState: string;
                        attributes: opentelemetry.proto.common.v1.KeyValue.$Properties[];
                        droppedAttributesCount: number;
                        flags: number;
                        static create(properties: opentelemetry.proto.trace.v1.Span.Link.$Shape): opentelemetry.proto.trace.v1.Span.Link & opentelemetry.proto.trace.v1.Span.Link.$Shape;
                        static create(properties?: opentelemetry.proto.trace.v1.Span.Link.$Properties): opentelemetry.proto.trace.v1.Span.Link;
                        static encode(message: opentelemetry.proto.trace.v1.Span.Link.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
                        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): opentelemetry.proto.trace.v1.Span.Link & opentelemetry.proto.trace.v1.Span.Link.$Shape;
                    }

                    namespace Link {
                        interface $Properties {
                            traceId?: (Uint8Array|null);
                            spanId?: (Uint8Array|null);
                            traceState?: (string|null);
                            attributes?: (opentelemetry.proto.common.v1.KeyValue.$Properties[]|null);
                            droppedAttributesCount?: (number|null);
                            flags?: (number|null);
                            $unknowns?: Uint8Array[];
                        }
                        type $Shape = {
                          traceId?: Uint8Array|null;
                          spanId?: Uint8Array|null;
                          traceState?: string|null;
                          attributes?: opentelemetry.proto.common.v1.KeyValue.$Shape[]|null;
                          droppedAttributesCount?: number|null;
                          flags?: number|null;
                          $unknowns?: Uint8Array[];
                        };
                    }
                }

                interface IStatus extends opentelemetry.proto.trace.v1.Status.$Properties {
                }

                class Status {
                    constructor(properties?: opentelemetry.proto.trace.v1.Status.$Properties);
                    $unknowns?: Uint8Array[];
                    message: string;
                    code: opentelemetry.proto.trace.v1.Status.StatusCode;
                    static create(properties: opentelemetry.proto.trace.v1.Status.$Shape): opentelemetry.proto.trace.v1.Status & opentelemetry.proto.trace.v1.Status.$Shape;
                    static create(properties?: opentelemetry.proto.trace.v1.Status.$Properties): opentelemetry.proto.trace.v1.Status;
                    static encode(message: opentelemetry.proto.trace.v1.Status.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
                    static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): opentelemetry.proto.trace.v1.Status & opentelemetry.proto.trace.v1.Status.$Shape;
                }

                namespace Status {
                    interface $Properties {
                        message?: (string|null);
                        code?: (opentelemetry.proto.trace.v1.Status.StatusCode|null);
                        $unknowns?: Uint8Array[];
                    }
                    type $Shape = opentelemetry.proto.trace.v1.Status.$Properties;

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

                interface IAnyValue extends opentelemetry.proto.common.v1.AnyValue.$Properties {
                }

                class AnyValue {
                    constructor(properties?: opentelemetry.proto.common.v1.AnyValue.$Properties);
                    $unknowns?: Uint8Array[];
                    stringValue?: (string|null);
                    boolValue?: (boolean|null);
                    intValue?: (Long|null);
                    doubleValue?: (number|null);
                    arrayValue?: (opentelemetry.proto.common.v1.ArrayValue.$Properties|null);
                    kvlistValue?: (opentelemetry.proto.common.v1.KeyValueList.$Properties|null);
                    bytesValue?: (Uint8Array|null);
                    value?: ("stringValue"|"boolValue"|"intValue"|"doubleValue"|"arrayValue"|"kvlistValue"|"bytesValue");
                    static create(properties: opentelemetry.proto.common.v1.AnyValue.$Shape): opentelemetry.proto.common.v1.AnyValue & opentelemetry.proto.common.v1.AnyValue.$Shape;
                    static create(properties?: opentelemetry.proto.common.v1.AnyValue.$Properties): opentelemetry.proto.common.v1.AnyValue;
                    static encode(message: opentelemetry.proto.common.v1.AnyValue.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
                    static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): opentelemetry.proto.common.v1.AnyValue & opentelemetry.proto.common.v1.AnyValue.$Shape;
                }

                namespace AnyValue {
                    interface $Properties {
                        stringValue?: (string|null);
                        boolValue?: (boolean|null);
                        intValue?: (Long|null);
                        doubleValue?: (number|null);
                        arrayValue?: (opentelemetry.proto.common.v1.ArrayValue.$Properties|null);
                        kvlistValue?: (opentelemetry.proto.common.v1.KeyValueList.$Properties|null);
                        bytesValue?: (Uint8Array|null);
                        value?: ("stringValue"|"boolValue"|"intValue"|"doubleValue"|"arrayValue"|"kvlistValue"|"bytesValue");
                        $unknowns?: Uint8Array[];
                    }
                    type $Shape = {
                      stringValue?: string|null;
                      boolValue?: boolean|null;
                      intValue?: Long|null;
                      doubleValue?: number|null;
                      arrayValue?: opentelemetry.proto.common.v1.ArrayValue.$Shape|null;
                      kvlistValue?: opentelemetry.proto.common.v1.KeyValueList.$Shape|null;
                      bytesValue?: Uint8Array|null;
                      $unknowns?: Uint8Array[];
                    } & (
                      ({ value?: undefined; stringValue?: null; boolValue?: null; intValue?: null; doubleValue?: null; arrayValue?: null; kvlistValue?: null; bytesValue?: null }|{ value?: "stringValue"; stringValue: string; boolValue?: null; intValue?: null; doubleValue?: null; arrayValue?: null; kvlistValue?: null; bytesValue?: null }|{ value?: "boolValue"; stringValue?: null; boolValue: boolean; intValue?: null; doubleValue?: null; arrayValue?: null; kvlistValue?: null; bytesValue?: null }|{ value?: "intValue"; stringValue?: null; boolValue?: null; intValue: Long; doubleValue?: null; arrayValue?: null; kvlistValue?: null; bytesValue?: null }|{ value?: "doubleValue"; stringValue?: null; boolValue?: null; intValue?: null; doubleValue: number; arrayValue?: null; kvlistValue?: null; bytesValue?: null }|{ value?: "arrayValue"; stringValue?: null; boolValue?: null; intValue?: null; doubleValue?: null; arrayValue: opentelemetry.proto.common.v1.ArrayValue.$Shape; kvlistValue?: null; bytesValue?: null }|{ value?: "kvlistValue"; stringValue?: null; boolValue?: null; intValue?: null; doubleValue?: null; arrayValue?: null; kvlistValue: opentelemetry.proto.common.v1.KeyValueList.$Shape; bytesValue?: null }|{ value?: "bytesValue"; stringValue?: null; boolValue?: null; intValue?: null; doubleValue?: null; arrayValue?: null; kvlistValue?: null; bytesValue: Uint8Array })
                    );
                }

                interface IArrayValue extends opentelemetry.proto.common.v1.ArrayValue.$Properties {
                }

                class ArrayValue {
                    constructor(properties?: opentelemetry.proto.common.v1.ArrayValue.$Properties);
                    $unknowns?: Uint8Array[];
                    values: opentelemetry.proto.common.v1.AnyValue.$Properties[];
                    static create(properties: opentelemetry.proto.common.v1.ArrayValue.$Shape): opentelemetry.proto.common.v1.ArrayValue & opentelemetry.proto.common.v1.ArrayValue.$Shape;
                    static create(properties?: opentelemetry.proto.common.v1.ArrayValue.$Properties): opentelemetry.proto.common.v1.ArrayValue;
                    static encode(message: opentelemetry.proto.common.v1.ArrayValue.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
                    static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): opentelemetry.proto.common.v1.ArrayValue & opentelemetry.proto.common.v1.ArrayValue.$Shape;
                }

                namespace ArrayValue {
                    interface $Properties {
                        values?: (opentelemetry.proto.common.v1.AnyValue.$Properties[]|null);
                        $unknowns?: Uint8Array[];
                    }
                    type $Shape = {
                      values?: opentelemetry.proto.common.v1.AnyValue.$Shape[]|null;
                      $unknowns?: Uint8Array[];
                    };
                }

                interface IKeyValueList extends opentelemetry.proto.common.v1.KeyValueList.$Properties {
                }

                class KeyValueList {
                    constructor(properties?: opentelemetry.proto.common.v1.KeyValueList.$Properties);
                    $unknowns?: Uint8Array[];
                    values: opentelemetry.proto.common.v1.KeyValue.$Properties[];
                    static create(properties: opentelemetry.proto.common.v1.KeyValueList.$Shape): opentelemetry.proto.common.v1.KeyValueList & opentelemetry.proto.common.v1.KeyValueList.$Shape;
                    static create(properties?: opentelemetry.proto.common.v1.KeyValueList.$Properties): opentelemetry.proto.common.v1.KeyValueList;
                    static encode(message: opentelemetry.proto.common.v1.KeyValueList.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
                    static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): opentelemetry.proto.common.v1.KeyValueList & opentelemetry.proto.common.v1.KeyValueList.$Shape;
                }

                namespace KeyValueList {
                    interface $Properties {
                        values?: (opentelemetry.proto.common.v1.KeyValue.$Properties[]|null);
                        $unknowns?: Uint8Array[];
                    }
                    type $Shape = {
                      values?: opentelemetry.proto.common.v1.KeyValue.$Shape[]|null;
                      $unknowns?: Uint8Array[];
                    };
                }

                interface IKeyValue extends opentelemetry.proto.common.v1.KeyValue.$Properties {
                }

                class KeyValue {
                    constructor(properties?: opentelemetry.proto.common.v1.KeyValue.$Properties);
                    $unknowns?: Uint8Array[];
                    key: string;
                    value?: (opentelemetry.proto.common.v1.AnyValue.$Properties|null);
                    static create(properties: opentelemetry.proto.common.v1.KeyValue.$Shape): opentelemetry.proto.common.v1.KeyValue & opentelemetry.proto.common.v1.KeyValue.$Shape;
                    static create(properties?: opentelemetry.proto.common.v1.KeyValue.$Properties): opentelemetry.proto.common.v1.KeyValue;
                    static encode(message: opentelemetry.proto.common.v1.KeyValue.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
                    static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): opentelemetry.proto.common.v1.KeyValue & opentelemetry.proto.common.v1.KeyValue.$Shape;
                }

                namespace KeyValue {
                    interface $Properties {
                        key?: (string|null);
                        value?: (opentelemetry.proto.common.v1.AnyValue.$Properties|null);
                        $unknowns?: Uint8Array[];
                    }
                    type $Shape = {
                      key?: string|null;
                      value?: opentelemetry.proto.common.v1.AnyValue.$Shape|null;
                      $unknowns?: Uint8Array[];
                    };
                }

                interface IInstrumentationScope extends opentelemetry.proto.common.v1.InstrumentationScope.$Properties {
                }

                class InstrumentationScope {
                    constructor(properties?: opentelemetry.proto.common.v1.InstrumentationScope.$Properties);
                    $unknowns?: Uint8Array[];
                    name: string;
                    version: string;
                    attributes: opentelemetry.proto.common.v1.KeyValue.$Properties[];
                    droppedAttributesCount: number;
                    static create(properties: opentelemetry.proto.common.v1.InstrumentationScope.$Shape): opentelemetry.proto.common.v1.InstrumentationScope & opentelemetry.proto.common.v1.InstrumentationScope.$Shape;
                    static create(properties?: opentelemetry.proto.common.v1.InstrumentationScope.$Properties): opentelemetry.proto.common.v1.InstrumentationScope;
                    static encode(message: opentelemetry.proto.common.v1.InstrumentationScope.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
                    static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): opentelemetry.proto.common.v1.InstrumentationScope & opentelemetry.proto.common.v1.InstrumentationScope.$Shape;
                }

                namespace InstrumentationScope {
                    interface $Properties {
                        name?: (string|null);
                        version?: (string|null);
                        attributes?: (opentelemetry.proto.common.v1.KeyValue.$Properties[]|null);
                        droppedAttributesCount?: (number|null);
                        $unknowns?: Uint8Array[];
                    }
                    type $Shape = {
                      name?: string|null;
                      version?: string|null;
                      attributes?: opentelemetry.proto.common.v1.KeyValue.$Shape[]|null;
                      droppedAttributesCount?: number|null;
                      $unknowns?: Uint8Array[];
                    };
                }
            }
        }

        namespace resource {

            namespace v1 {

                interface IResource extends opentelemetry.proto.resource.v1.Resource.$Properties {
                }

                class Resource {
                    constructor(properties?: opentelemetry.proto.resource.v1.Resource.$Properties);
                    $unknowns?: Uint8Array[];
                    attributes: opentelemetry.proto.common.v1.KeyValue.$Properties[];
                    droppedAttributesCount: number;
                    static create(properties: opentelemetry.proto.resource.v1.Resource.$Shape): opentelemetry.proto.resource.v1.Resource & opentelemetry.proto.resource.v1.Resource.$Shape;
                    static create(properties?: opentelemetry.proto.resource.v1.Resource.$Properties): opentelemetry.proto.resource.v1.Resource;
                    static encode(message: opentelemetry.proto.resource.v1.Resource.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
                    static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): opentelemetry.proto.resource.v1.Resource & opentelemetry.proto.resource.v1.Resource.$Shape;
                }

                namespace Resource {
                    interface $Properties {
                        attributes?: (opentelemetry.proto.common.v1.KeyValue.$Properties[]|null);
                        droppedAttributesCount?: (number|null);
                        $unknowns?: Uint8Array[];
                    }
                    type $Shape = {
                      attributes?: opentelemetry.proto.common.v1.KeyValue.$Shape[]|null;
                      droppedAttributesCount?: number|null;
                      $unknowns?: Uint8Array[];
                    };
                }
            }
        }
    }
}

export namespace google {

    namespace protobuf {

        interface IAny extends google.protobuf.Any.$Properties {
        }

        class Any {
            constructor(properties?: google.protobuf.Any.$Properties);
            $unknowns?: Uint8Array[];
            type_url: string;
            value: Uint8Array;
            static create(properties: google.protobuf.Any.$Shape): google.protobuf.Any & google.protobuf.Any.$Shape;
            static create(properties?: google.protobuf.Any.$Properties): google.protobuf.Any;
            static encode(message: google.protobuf.Any.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): google.protobuf.Any & google.protobuf.Any.$Shape;
        }

        namespace Any {
            interface $Properties {
                type_url?: (string|null);
                value?: (Uint8Array|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = google.protobuf.Any.$Properties;
        }
    }

    namespace rpc {

        interface IStatus extends google.rpc.Status.$Properties {
        }

        class Status {
            constructor(properties?: google.rpc.Status.$Properties);
            $unknowns?: Uint8Array[];
            code: number;
            message: string;
            details: google.protobuf.Any.$Properties[];
            static create(properties: google.rpc.Status.$Shape): google.rpc.Status & google.rpc.Status.$Shape;
            static create(properties?: google.rpc.Status.$Properties): google.rpc.Status;
            static encode(message: google.rpc.Status.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): google.rpc.Status & google.rpc.Status.$Shape;
        }

        namespace Status {
            interface $Properties {
                code?: (number|null);
                message?: (string|null);
                details?: (google.protobuf.Any.$Properties[]|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = google.rpc.Status.$Properties;
        }
    }
}
