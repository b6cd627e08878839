/**
 * The order in which core/policy_parse.c reports problems, so the TypeScript
 * message reads like the supervisor's and, past the cap of 32, shows the same
 * problems: the document itself; unknown top-level fields; mode; the four
 * path lists (items by index); devices (items); network: unknown fields, egress, localBinding,
 * allowedHosts (items), allowedInternalHosts (items), outgoingProxy (unknown fields,
 * allowUnproxiedCertificateFetches, upstream, frontEnds, items), allowedUnixSockets (items); limits (unknown
 * fields, processes, memoryBytes, openFiles); scratch (unknown fields,
 * sizeBytes).
 */
interface Level {
    fields: string[];
    children?: Record<string, Level>;
}
const PROXY: Level = { fields: ["allowUnproxiedCertificateFetches", "upstream", "frontEnds"] };
const NETWORK: Level = {
    fields: ["egress", "localBinding", "allowedHosts", "allowedInternalHosts", "outgoingProxy", "allowedUnixSockets"],
    children: { outgoingProxy: PROXY },
};
const LIMITS: Level = { fields: ["processes", "memoryBytes", "openFiles"] };
const SCRATCH: Level = { fields: ["sizeBytes"] };
const ROOT: Level = {
    fields: ["mode", "allowedReadPaths", "deniedReadPaths", "allowedWritePaths", "deniedWritePaths", "devices", "network", "limits", "scratch"],
    children: { network: NETWORK, limits: LIMITS, scratch: SCRATCH },
};

/** "$.network.allowedHosts[2]" → ["network", "allowedHosts", 2]. */
function segments(path: string): Array<string | number> {
    const out: Array<string | number> = [];
    for (const m of path.slice(1).matchAll(/\.([^.[]*)|\[(\d+)\]/g)) out.push(m[2] !== undefined ? Number(m[2]) : (m[1] ?? ""));
    return out;
}

/** A sort key; unknown fields (rank 0) come before the known ones at each level. */
function orderKey(path: string): number[] {
    const key: number[] = [];
    let level: Level | undefined = ROOT;
    for (const s of segments(path)) {
        if (typeof s === "number") {
            key.push(1 + s);
            continue;
        }
        key.push((level?.fields.indexOf(s) ?? -1) + 1); // 0 when unknown
        level = level?.children?.[s];
    }
    return key;
}

function compareKeys(a: number[], b: number[]): number {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
        const d = (a[i] ?? 0) - (b[i] ?? 0);
        if (d !== 0) return d;
    }
    return a.length - b.length;
}

/** Stable: problems at the same place keep the order they were found in. */
export function inReportOrder<T extends { path: string }>(problems: readonly T[]): T[] {
    return problems
        .map((p, i) => ({ p, i, key: orderKey(p.path) }))
        .sort((x, y) => compareKeys(x.key, y.key) || x.i - y.i)
        .map((x) => x.p);
}
