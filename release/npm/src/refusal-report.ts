/**
 * The refusal report (README.md, "Refusal report"): with
 * `--refusal-report N` the supervisor writes one JSON line to descriptor N
 * for every refusal the sandbox sees, as it happens, and a last line when
 * the workload ends. This is its typed reader.
 */
import { Type, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";

/** RFC 3339 UTC with milliseconds. */
const Time = Type.String({ pattern: String.raw`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$` });
/** Lines the writer could not write just before this one. */
const Dropped = Type.Integer({ minimum: 0 });

export const EgressRefusalSchema = Type.Object(
    {
        event: Type.Literal("egress-refused"),
        /** RFC 3339 UTC with milliseconds. */
        time: Time,
        /** The front-end the workload used ("dns": the transparent front-end's resolver refused a name). */
        frontEnd: Type.Union([
            Type.Literal("http"),
            Type.Literal("socks5"),
            Type.Literal("transparent"),
            Type.Literal("dns"),
        ]),
        /** The host as the workload named it, normalised (lower case, no trailing dot). */
        host: Type.String({ minLength: 1 }),
        port: Type.Integer({ minimum: 1, maximum: 65535 }),
        /** For "address-class": the resolved address that was refused; else null. */
        address: Type.Union([Type.String({ minLength: 1 }), Type.Null()]),
        /** The rule: not in allowedHosts (host or port), an inward address, or a numeric spelling. */
        rule: Type.Union([
            Type.Literal("allowedHosts"),
            Type.Literal("address-class"),
            Type.Literal("numeric-host-spelling"),
        ]),
        /** The sentence the workload's client was given. */
        reason: Type.String(),
        /** Lines the supervisor could not write (the reader was behind) just before this one. */
        dropped: Dropped,
    },
    { additionalProperties: false },
);

export type EgressRefusal = Static<typeof EgressRefusalSchema>;

/** An allowed destination the proxy could not reach (not a policy refusal). */
export const EgressFailureSchema = Type.Object(
    {
        event: Type.Literal("egress-failed"),
        time: Time,
        frontEnd: Type.Union([Type.Literal("http"), Type.Literal("socks5"), Type.Literal("transparent")]),
        host: Type.String({ minLength: 1 }),
        port: Type.Integer({ minimum: 1, maximum: 65535 }),
        /**
         * What failed: the name did not resolve; the upstream proxy refused
         * the CONNECT (upstreamStatus says how); or it was not reached, or
         * did not answer as a proxy in time.
         */
        cause: Type.Union([Type.Literal("name-resolution"), Type.Literal("upstream-refused"), Type.Literal("upstream-failed")]),
        /** The upstream proxy (network.outgoingProxy.upstream), as http://host:port without credentials. */
        upstream: Type.Union([Type.String(), Type.Null()]),
        /** The upstream proxy's answer, for "upstream-refused". */
        upstreamStatus: Type.Union([Type.Integer({ minimum: 100, maximum: 999 }), Type.Null()]),
        /** The sentence the workload's client was given with its 502 or 504. */
        reason: Type.String(),
        dropped: Dropped,
    },
    { additionalProperties: false },
);
export type EgressFailure = Static<typeof EgressFailureSchema>;

/** The connect() broker refused a Unix socket (an abstract address as "@name"). */
export const UnixConnectRefusalSchema = Type.Object(
    { event: Type.Literal("unix-connect-refused"), time: Time, path: Type.String(), reason: Type.String(), dropped: Dropped },
    { additionalProperties: false },
);
export type UnixConnectRefusal = Static<typeof UnixConnectRefusalSchema>;

/** The broker (landlock) refused an IP destination past the proxy. */
export const IpConnectRefusalSchema = Type.Object(
    {
        event: Type.Literal("ip-connect-refused"),
        time: Time,
        address: Type.String(),
        port: Type.Integer({ minimum: 0, maximum: 65535 }),
        reason: Type.String(),
        dropped: Dropped,
    },
    { additionalProperties: false },
);
export type IpConnectRefusal = Static<typeof IpConnectRefusalSchema>;

/** The broker (landlock) refused a chmod, chown, utimes or xattr change. */
export const MetadataRefusalSchema = Type.Object(
    {
        event: Type.Literal("metadata-refused"),
        time: Time,
        call: Type.String(),
        path: Type.Union([Type.String(), Type.Null()]),
        reason: Type.String(),
        dropped: Dropped,
    },
    { additionalProperties: false },
);
export type MetadataRefusal = Static<typeof MetadataRefusalSchema>;

/** The last line: how the workload ended (an exit status or a signal's name). */
export const WorkloadEndedSchema = Type.Union([
    Type.Object(
        { event: Type.Literal("workload-ended"), time: Time, status: Type.Integer({ minimum: 0, maximum: 255 }),
          killedBySupervisor: Type.Boolean(), dropped: Dropped },
        { additionalProperties: false },
    ),
    Type.Object(
        { event: Type.Literal("workload-ended"), time: Time, signal: Type.String({ pattern: "^SIG[A-Z0-9+]+$" }),
          killedBySupervisor: Type.Boolean(), dropped: Dropped },
        { additionalProperties: false },
    ),
]);
export type WorkloadEnded = Static<typeof WorkloadEndedSchema>;

/** The sandbox reached one of the policy's limits (written when the workload ended). */
export const LimitReachedSchema = Type.Object(
    {
        event: Type.Literal("limit-reached"),
        time: Time,
        limit: Type.Union([Type.Literal("memoryBytes"), Type.Literal("processes")]),
        /** The limit as the policy set it. */
        value: Type.Integer({ minimum: 1 }),
        /** OOM kills (memoryBytes) or refused forks (processes). */
        count: Type.Integer({ minimum: 1 }),
        dropped: Dropped,
    },
    { additionalProperties: false },
);
export type LimitReached = Static<typeof LimitReachedSchema>;

/**
 * The process between the supervisor and the workload (linux-ns's init,
 * landlock's broker) died of a signal before it reported how the workload
 * ended; the workload-ended line after it carries the same signal.
 */
export const SandboxDiedSchema = Type.Object(
    {
        event: Type.Literal("sandbox-died"),
        time: Time,
        process: Type.String({ minLength: 1 }),
        signal: Type.String({ pattern: "^SIG[A-Z0-9+]+$" }),
        dropped: Dropped,
    },
    { additionalProperties: false },
);
export type SandboxDied = Static<typeof SandboxDiedSchema>;

/**
 * A line of a kind this reader does not know (a newer supervisor):
 * surfaced, never dropped, with its fields as written.
 */
export interface UnknownReportEvent {
    event: "unknown";
    /** The line's own `event`. */
    kind: string;
    fields: Record<string, unknown>;
}

/** Every line of the report. */
export type ReportEvent =
    | EgressRefusal
    | EgressFailure
    | UnixConnectRefusal
    | IpConnectRefusal
    | MetadataRefusal
    | WorkloadEnded
    | LimitReached
    | SandboxDied
    | UnknownReportEvent;

const KNOWN = {
    "egress-refused": EgressRefusalSchema,
    "egress-failed": EgressFailureSchema,
    "unix-connect-refused": UnixConnectRefusalSchema,
    "ip-connect-refused": IpConnectRefusalSchema,
    "metadata-refused": MetadataRefusalSchema,
    "workload-ended": WorkloadEndedSchema,
    "limit-reached": LimitReachedSchema,
    "sandbox-died": SandboxDiedSchema,
} as const;

/** Any line of a kind this reader knows. */
export const ReportLineSchema = Type.Union(Object.values(KNOWN));
/** Any line of the report (ReportEvent, under the name it had first). */
export type ReportLine = ReportEvent;

/** A line that is not a refusal record (thrown by parseRefusalLine). */
export class RefusalReportError extends Error {
    constructor(readonly line: string, why: string) {
        super(`not a refusal report line (${why}): ${line.length > 200 ? `${line.slice(0, 200)}...` : line}`);
        this.name = "RefusalReportError";
    }
}

/**
 * One line of the report (without its newline), checked field by field
 * against its kind; a kind this reader does not know comes back as
 * UnknownReportEvent.
 */
export function parseRefusalLine(line: string): ReportEvent {
    let value: unknown;
    try {
        value = JSON.parse(line);
    } catch {
        throw new RefusalReportError(line, "not JSON");
    }
    if (typeof value !== "object" || value === null || Array.isArray(value))
        throw new RefusalReportError(line, "not an object");
    const fields = value as Record<string, unknown>;
    const kind = fields.event;
    if (typeof kind !== "string" || kind === "" || kind === "unknown")
        throw new RefusalReportError(line, "/event: not a kind");
    if (!Object.hasOwn(KNOWN, kind)) {
        if (Value.Errors(Type.Object({ time: Time, dropped: Dropped }), value).First())
            throw new RefusalReportError(line, "an unknown kind without time and dropped");
        return { event: "unknown", kind, fields };
    }
    const schema = KNOWN[kind as keyof typeof KNOWN];
    const problem = Value.Errors(schema, value).First();
    if (problem) throw new RefusalReportError(line, `${problem.path || "/"}: ${problem.message}`);
    return value as ReportEvent;
}

/**
 * Every refusal on `stream` (the read end of the descriptor given as
 * `--refusal-report N`, e.g. `child.stdio[3]`: any async iterable of text or
 * bytes, as Node's streams are), as each line completes, until the stream
 * ends — when the supervisor and its egress process have exited. Throws
 * RefusalReportError on a line that is not a report record.
 */
export async function* readRefusalReport(
    stream: AsyncIterable<string | Uint8Array>,
): AsyncGenerator<ReportEvent> {
    const decoder = new TextDecoder("utf-8", { fatal: true });
    let pending = "";
    for await (const chunk of stream) {
        pending += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
        let newline: number;
        while ((newline = pending.indexOf("\n")) !== -1) {
            const line = pending.slice(0, newline);
            pending = pending.slice(newline + 1);
            if (line !== "") yield parseRefusalLine(line);
        }
    }
    pending += decoder.decode();
    if (pending !== "") yield parseRefusalLine(pending);
}
