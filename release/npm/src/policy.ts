/**
 * parseSupervisorPolicy(): the TypeScript twin of core/policy_parse.c.
 *
 * It accepts and refuses exactly what the supervisor does (the shared corpus
 * in tests/core/policy-corpus/ checks both), and like the C side it reports
 * every offending field at once, each as "<JSON path>: <problem>".
 */
import { Value } from "@sinclair/typebox/value";
import { upstreamUrlProblem } from "./policy-rules.js";
import { inReportOrder } from "./problem-order.js";
import { describeSchemaError, jsonPointerToPath, stringProblem } from "./schema-errors.js";
import {
    PATH_LIST_FIELDS,
    SupervisorPolicySchema,
    type SupervisorPolicy,
} from "./policy-schema.js";

/** Largest policy document the supervisor reads (README.md, "Command line"). */
export const POLICY_MAX_BYTES = 1024 * 1024;
/** Same bound as the C side: enough to fix in one go, never a huge message. */
const MAX_REPORTED_PROBLEMS = 32;

export interface PolicyProblem {
    /** JSON path of the offending field, e.g. "$.network.allowedHosts[0]". */
    readonly path: string;
    readonly message: string;
}

/**
 * Thrown by parseSupervisorPolicy(); `problems` lists every offending field
 * (at most 32, then one "$" entry saying how many more, as the C side does).
 */
export class SupervisorPolicyError extends Error {
    readonly problems: readonly PolicyProblem[];

    constructor(problems: readonly PolicyProblem[]) {
        super(`invalid supervisor policy: ${problems.map((p) => `${p.path}: ${p.message}`).join("; ")}`);
        this.name = "SupervisorPolicyError";
        this.problems = problems;
    }
}

function capped(problems: readonly PolicyProblem[]): PolicyProblem[] {
    if (problems.length <= MAX_REPORTED_PROBLEMS) return [...problems];
    const more = problems.length - MAX_REPORTED_PROBLEMS;
    return [
        ...problems.slice(0, MAX_REPORTED_PROBLEMS),
        { path: "$", message: `and ${more} more problem${more === 1 ? "" : "s"}` },
    ];
}

/**
 * Validate `value` as a supervisor policy and return it as a plain JSON value
 * (a snapshot: JSON.stringify of the result is what the supervisor will see,
 * whatever getters, toJSON methods or undefined members the input had).
 * Throws SupervisorPolicyError naming every offending field.
 */
export function parseSupervisorPolicy(value: unknown): SupervisorPolicy {
    const snapshot = jsonSnapshot(value);
    if (!snapshot.ok) throw new SupervisorPolicyError([{ path: "$", message: snapshot.problem }]);
    const document = snapshot.value;
    const problems = new ProblemList();
    for (const error of Value.Errors(SupervisorPolicySchema, document)) {
        const path = jsonPointerToPath(document, error.path);
        problems.add(path, describeSchemaError(error, path));
    }
    checkStrings(document, problems);
    checkUpstream(document, problems);
    checkFrontEndsOnce(document, problems);
    if (!problems.isEmpty()) throw new SupervisorPolicyError(capped(inReportOrder(problems.list())));
    // Rules relating fields to each other only mean something once every field
    // is well-formed (the C parser runs them under the same condition), and
    // they report in their own order.
    checkCombinations(document as SupervisorPolicy, problems);
    if (!problems.isEmpty()) throw new SupervisorPolicyError(problems.list());
    return document as SupervisorPolicy;
}

/** Problems keyed by path: the first description of a field wins. */
class ProblemList {
    private readonly byPath = new Map<string, string>();
    add(path: string, message: string): void {
        if (!this.byPath.has(path)) this.byPath.set(path, message);
    }
    has(path: string): boolean {
        return this.byPath.has(path);
    }
    isEmpty(): boolean {
        return this.byPath.size === 0;
    }
    list(): PolicyProblem[] {
        return [...this.byPath].map(([path, message]) => ({ path, message }));
    }
}

type Snapshot = { ok: true; value: unknown } | { ok: false; problem: string };

function jsonSnapshot(value: unknown): Snapshot {
    let text: string | undefined;
    try {
        text = JSON.stringify(value);
    } catch (error) {
        return { ok: false, problem: `the policy is not JSON data (${(error as Error).message})` };
    }
    if (text === undefined) return { ok: false, problem: "the policy is not JSON data" };
    if (Buffer.byteLength(text, "utf8") > POLICY_MAX_BYTES)
        return { ok: false, problem: "the policy is larger than the limit of 1 MiB" };
    return { ok: true, value: JSON.parse(text) as unknown };
}

function isRecord(value: unknown): value is Record<string, unknown> {
    return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * The string rules JSON Schema cannot express (UTF-8 byte limits, lone
 * surrogates), for every string the schema passed.
 */
function checkStrings(document: unknown, problems: ProblemList): void {
    if (!isRecord(document)) return;
    const lists: Array<[string, unknown]> = PATH_LIST_FIELDS.map((f) => [`$.${f}`, document[f]]);
    lists.push(["$.devices", document.devices]);
    if (isRecord(document.network)) {
        lists.push(["$.network.allowedHosts", document.network.allowedHosts]);
        lists.push(["$.network.allowedInternalHosts", document.network.allowedInternalHosts]);
        lists.push(["$.network.allowedUnixSockets", document.network.allowedUnixSockets]);
    }
    for (const [listPath, list] of lists) {
        if (!Array.isArray(list)) continue;
        list.forEach((item: unknown, i) => {
            const path = `${listPath}[${i}]`;
            if (typeof item !== "string" || problems.has(path)) return;
            const problem = stringProblem(path, item);
            if (problem !== undefined) problems.add(path, problem);
        });
    }
}

/** outgoingProxy.upstream: "environment" or an http:// URL (upstreamUrlProblem). */
function checkUpstream(document: unknown, problems: ProblemList): void {
    if (!isRecord(document) || !isRecord(document.network)) return;
    const proxy = document.network.outgoingProxy;
    const path = "$.network.outgoingProxy.upstream";
    if (!isRecord(proxy) || typeof proxy.upstream !== "string" || proxy.upstream === "environment" || problems.has(path)) return;
    const why = upstreamUrlProblem(proxy.upstream);
    if (why !== undefined) problems.add(path, `must be "environment" or an http://host:port URL: it ${why}`);
}

/** A front-end named twice: reported at the repeat, as the C side does. */
function checkFrontEndsOnce(document: unknown, problems: ProblemList): void {
    if (!isRecord(document) || !isRecord(document.network)) return;
    const proxy = document.network.outgoingProxy;
    if (!isRecord(proxy) || !Array.isArray(proxy.frontEnds)) return;
    const seen = new Set<unknown>();
    proxy.frontEnds.forEach((frontEnd: unknown, i) => {
        if (frontEnd !== "http" && frontEnd !== "socks5" && frontEnd !== "transparent") return;
        if (seen.has(frontEnd)) problems.add(`$.network.outgoingProxy.frontEnds[${i}]`, "names a front-end twice");
        seen.add(frontEnd);
    });
}

function checkCombinations(policy: SupervisorPolicy, problems: ProblemList): void {
    const net = policy.network;
    const hostCount = net.allowedHosts?.length ?? 0;
    const internalCount = net.allowedInternalHosts?.length ?? 0;
    const unenforced =
        "nothing would enforce this list with egress on and no proxy: add network.outgoingProxy, or set egress to false";
    if (policy.mode === "full_access") {
        const why = "is a restriction, which full_access cannot carry: use another mode";
        if (policy.deniedReadPaths?.length) problems.add("$.deniedReadPaths", why);
        if (policy.deniedWritePaths?.length) problems.add("$.deniedWritePaths", why);
        if (!net.egress) problems.add("$.network.egress", `false ${why}`);
        if (!net.localBinding) problems.add("$.network.localBinding", `false ${why}`);
        if (hostCount) problems.add("$.network.allowedHosts", why);
        if (internalCount) problems.add("$.network.allowedInternalHosts", why);
        if (net.outgoingProxy) problems.add("$.network.outgoingProxy", why);
        if (policy.limits && Object.keys(policy.limits).length) problems.add("$.limits", why);
        if (policy.scratch) problems.add("$.scratch", "needs a sandbox, which full_access does not build: use another mode");
        if (policy.devices?.length) problems.add("$.devices", "needs a sandbox, which full_access does not build: use another mode");
        if (net.allowedUnixSockets?.length)
            problems.add("$.network.allowedUnixSockets", "needs a sandbox, which full_access does not build: use another mode");
        return;
    }
    if (net.outgoingProxy && !net.egress) problems.add("$.network.outgoingProxy", 'requires "egress": true');
    if (net.egress && hostCount && !net.outgoingProxy) problems.add("$.network.allowedHosts", unenforced);
    if (net.egress && internalCount && !net.outgoingProxy) problems.add("$.network.allowedInternalHosts", unenforced);
}
