/**
 * The refusal report (README.md, "Refusal report"): with
 * `--refusal-report N` the supervisor writes one JSON line to descriptor N
 * for every destination its egress proxy refuses, as it happens. This is
 * its typed reader.
 */
import { Type, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";

export const EgressRefusalSchema = Type.Object(
    {
        event: Type.Literal("egress-refused"),
        /** RFC 3339 UTC with milliseconds. */
        time: Type.String({ pattern: String.raw`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$` }),
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
        dropped: Type.Integer({ minimum: 0 }),
    },
    { additionalProperties: false },
);

export type EgressRefusal = Static<typeof EgressRefusalSchema>;

/** The sandbox reached one of the policy's limits (written when the workload ended). */
export const LimitReachedSchema = Type.Object(
    {
        event: Type.Literal("limit-reached"),
        time: EgressRefusalSchema.properties.time,
        limit: Type.Union([Type.Literal("memoryBytes"), Type.Literal("processes")]),
        /** The limit as the policy set it. */
        value: Type.Integer({ minimum: 1 }),
        /** OOM kills (memoryBytes) or refused forks (processes). */
        count: Type.Integer({ minimum: 1 }),
        dropped: Type.Integer({ minimum: 0 }),
    },
    { additionalProperties: false },
);

export type LimitReached = Static<typeof LimitReachedSchema>;

/** Any line of the report. */
export const ReportLineSchema = Type.Union([EgressRefusalSchema, LimitReachedSchema]);
export type ReportLine = EgressRefusal | LimitReached;

/** A line that is not a refusal record (thrown by parseRefusalLine). */
export class RefusalReportError extends Error {
    constructor(readonly line: string, why: string) {
        super(`not a refusal report line (${why}): ${line.length > 200 ? `${line.slice(0, 200)}...` : line}`);
        this.name = "RefusalReportError";
    }
}

/** One line of the report (without its newline), checked field by field. */
export function parseRefusalLine(line: string): ReportLine {
    let value: unknown;
    try {
        value = JSON.parse(line);
    } catch {
        throw new RefusalReportError(line, "not JSON");
    }
    const kind = (value as { event?: unknown } | null)?.event;
    const schema = kind === "limit-reached" ? LimitReachedSchema : EgressRefusalSchema;
    const problem = Value.Errors(schema, value).First();
    if (problem) throw new RefusalReportError(line, `${problem.path || "/"}: ${problem.message}`);
    return value as ReportLine;
}

/**
 * Every refusal on `stream` (the read end of the descriptor given as
 * `--refusal-report N`, e.g. `child.stdio[3]`: any async iterable of text or
 * bytes, as Node's streams are), as each line completes, until the stream
 * ends — when the supervisor and its egress process have exited. Throws
 * RefusalReportError on a line that is not a refusal record.
 */
export async function* readRefusalReport(
    stream: AsyncIterable<string | Uint8Array>,
): AsyncGenerator<ReportLine> {
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
