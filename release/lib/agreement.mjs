// release/lib/agreement.mjs — the TypeScript parser against the real binary.
//
//   node agreement.mjs BINARY CORPUS_DIR [COUNT]
//
// Every valid/ and invalid/ case of the shared corpus, then COUNT (default
// 2000) policies generated from pools of good and bad values, go through both
// parseSupervisorPolicy() and `BINARY --policy TEXT -- /bin/true`. They must
// agree on the verdict and on the JSON paths reported, in the same order. The C
// side's refusal is the one-line "happy-agent-supervisor: invalid policy: ..."
// (exit 125); any other outcome means it accepted the document (it may still
// refuse to run it for another reason, such as a missing backend).
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const { parseSupervisorPolicy, SupervisorPolicyError } = await import(join(here, "..", "npm", "dist", "index.js"));
const [binary, corpus, countArg] = process.argv.slice(2);
const COUNT = Number(countArg ?? 2000);

let passed = 0;
let failed = 0;

function tsVerdict(value) {
    try {
        parseSupervisorPolicy(value);
        return { accepted: true, paths: [] };
    } catch (error) {
        if (!(error instanceof SupervisorPolicyError)) throw error;
        return {
            accepted: false,
            paths: [...new Set(error.problems.map((p) => p.path))],
            hosts: error.problems.filter((p) => HOST_ITEMS.some((item) => p.path.startsWith(item))).map((p) => `${p.path}: ${p.message}`),
        };
    }
}

function cVerdict(text) {
    const r = spawnSync(binary, ["--policy", text, "--", "/bin/true"], { encoding: "utf8" });
    const prefix = "happy-agent-supervisor: invalid policy: ";
    if (r.status !== 125 || !r.stderr.startsWith(prefix)) return { accepted: true, paths: [], detail: r.stderr.trim() };
    const line = r.stderr.slice(prefix.length).trim();
    const paths = [...line.matchAll(/(?:^|; )(\$[^:]*): /g)].map((m) => m[1]);
    // core/diag.c bounds a message line (1023 bytes): a cut line says less,
    // and its last path may be cut short.
    const truncated = Buffer.byteLength(r.stderr) >= DIAG_LINE_MAX;
    if (truncated) paths.pop();
    const hosts = line.split("; ").filter((p) => HOST_ITEMS.some((item) => p.startsWith(item)));
    if (truncated) hosts.pop();
    return { accepted: false, paths: [...new Set(paths)], hosts, truncated, detail: line };
}
const DIAG_LINE_MAX = 1023;
const HOST_ITEMS = ["$.network.allowedHosts[", "$.network.allowedInternalHosts["];

function compare(value, text) {
    const ts = tsVerdict(value);
    const c = cVerdict(text);
    if (ts.accepted !== c.accepted) return `TypeScript ${ts.accepted ? "accepts" : "refuses"}, C ${c.accepted ? "accepts" : "refuses"} (C: ${c.detail}; TS paths: ${ts.paths.join(" ")})`;
    const tsPaths = c.truncated ? ts.paths.slice(0, c.paths.length) : ts.paths;
    if (tsPaths.join(" ") !== c.paths.join(" ")) return `paths or their order differ: TypeScript ${ts.paths.join(" ")} / C ${c.paths.join(" ")}`;
    const tsHosts = c.truncated ? (ts.hosts ?? []).slice(0, c.hosts.length) : (ts.hosts ?? []);
    if (!ts.accepted && tsHosts.join("; ") !== c.hosts.join("; "))
        return `allowedHosts messages differ: TypeScript "${tsHosts.join("; ")}" / C "${c.hosts.join("; ")}"`;
    return undefined;
}

for (const kind of ["valid", "invalid"]) {
    for (const file of readdirSync(join(corpus, kind)).filter((f) => f.endsWith(".json")).sort()) {
        const text = readFileSync(join(corpus, kind, file), "utf8");
        const problem = compare(JSON.parse(text), text);
        if (problem) {
            failed++;
            console.log(`FAIL - ${kind}/${file}: ${problem}`);
        } else {
            passed++;
            console.log(`ok - ${kind}/${file}: TypeScript and the binary agree`);
        }
    }
}

// A small seeded PRNG (mulberry32): the same documents on every run.
let seed = 0x5eed;
function random() {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (pool) => pool[Math.floor(random() * pool.length)];
const MISSING = Symbol("missing");
const listOf = (pool) => Array.from({ length: Math.floor(random() * 4) }, () => pick(pool));

// Each pool: values the parser accepts, then values it refuses. A document
// draws from the bad half of a pool with probability `noise`, chosen per
// document, so well-formed documents (where the cross-field rules apply) are
// as common as broken ones.
const pools = {
    mode: [["read_only", "workspace_write", "auto", "full_access", "full_access"], ["READ_ONLY", "", 1, null, MISSING]],
    path: [["/", "/tmp", "/tmp/", "/a/b", "/.../x", "/é/ü", `/${"a".repeat(4094)}`, "/tmp/\ud83d\ude00", "/a b"],
        ["//", "/a//b", "/a/../b", "/a/./b", "/..", "rel", "", "/a\nb", "/a\u007fb", `/${"é".repeat(2048)}`, 1, null, ["/x"]]],
    host: [["example.com", "*.example.com", "10.0.0.1", "[::1]", "é.example", `${"a".repeat(249)}.com`, "a\u00a0b", ".",
            "example.com:443", "*.example.com:22", "[2001:db8::1]:22", "127.0.0.1:65535", "2001:db8::1", `${"a".repeat(249)}.com:443`],
        ["*", "*.", "a*b", "*.a*", "**.a", "a b", "a\tb", "u@h", "a/b", "", `${"a".repeat(250)}.com`, 7, null,
            "a:0", "a:65536", "a:080", "a:", ":1", "*.:1", "[::1", "[::1]x", "[]", "a]", "a[b]", "[::1]:22]", "é:x"]],
    device: [["/dev/fuse", "/dev/dri/renderD128", "/dev/a/", "/dev/é"],
        ["/dev", "/dev/", "/tmp/x", "/devx", "dev/x", "/dev//x", "/dev/../mem", "", 3, null]],
    bool: [[true, false], ["true", 0, null, MISSING]],
    frontEnd: [["http", "socks5"], ["ftp", "HTTP", 1]],
    upstream: [["environment", "http://p:3128", "HTTP://u:p@p.example:1/", "http://u@10.0.0.1:65535", "http://[::1]:8080",
                "http://u:%41%ff@p:1", "http://[::ffff:1.2.3.4]:1", "http://a@b@p:9", "Http://p_x.-:80"],
        ["Environment", "https://p:1", "socks5h://p:1", "http://p", "http://p:0", "http://p:65536", "http://p:01",
         "http://p:1/x", "http://p:1?", "http://:1", "http://@p:1", "http://u:%4@p:1", "http://u:%7f@p:1", "http://[::1:1",
         "http://[fe80::1%25e]:1", "http://[1.2.3.4]:1", "http://p q:1", "http://é:1", "p:3128", "", 3128, null,
         `http://${"u".repeat(256)}@p:1`, `http://${"h".repeat(254)}:1`, "http://[]:1", "http://[::1]1"]],
};
let noise = 0;
const draw = (pool) => pick(random() < noise ? pool[1] : pool[0]);
const list = (pool) => Array.from({ length: Math.floor(random() * 4) }, () => draw(pool));
const pathList = () => (random() < noise ? pick([MISSING, "/tmp", null, {}]) : pick([MISSING, MISSING, [], list(pools.path)]));
const hostList = () => (random() < noise ? pick(["example.com", null]) : pick([MISSING, MISSING, [], list(pools.host)]));
function proxy() {
    if (random() < noise) return pick([{}, { frontEnds: ["http"], fd: 3 }, [], null, { frontEnds: "http" }, { frontEnds: [] }]);
    const base = pick([MISSING, MISSING, { frontEnds: list(pools.frontEnd) }, { frontEnds: ["http"] }, { frontEnds: ["socks5", "http"] }]);
    return base !== MISSING && random() < 0.4 ? { ...base, upstream: draw(pools.upstream) } : base;
}

function object(entries) {
    return Object.fromEntries(entries.filter(([, v]) => v !== MISSING));
}

function generate() {
    noise = pick([0, 0, 0.05, 0.2, 0.6]);
    if (random() < noise * 0.05) return pick([null, [], "policy", 1, true]);
    const network =
        random() < noise * 0.1
            ? pick([MISSING, null, [], "off", 0])
            : object([
                  ["egress", draw(pools.bool)],
                  ["localBinding", draw(pools.bool)],
                  ["allowedHosts", hostList()],
                  ["allowedInternalHosts", random() < 0.3 ? hostList() : MISSING],
                  ["outgoingProxy", proxy()],
                  ["allowedUnixSockets", random() < 0.2 ? pathList() : MISSING],
                  ...(random() < noise * 0.1 ? [["extra", 1]] : []),
              ]);
    return object([
        ["mode", draw(pools.mode)],
        ["allowedReadPaths", pathList()],
        ["deniedReadPaths", pathList()],
        ["allowedWritePaths", pathList()],
        ["deniedWritePaths", pathList()],
        ["devices", random() < 0.2 ? list(pools.device) : MISSING],
        ["network", network],
        ...(random() < noise * 0.1 ? [["cwd", "/tmp"]] : []),
    ]);
}

let disagreements = 0;
let accepted = 0;
for (let i = 0; i < COUNT; i++) {
    const value = generate();
    const text = JSON.stringify(value);
    const problem = compare(value, text);
    if (tsVerdict(value).accepted) accepted++;
    if (problem && ++disagreements <= 20) console.log(`# disagreement on ${text.length > 400 ? `${text.slice(0, 400)}...` : text}: ${problem}`);
}
if (disagreements) {
    failed++;
    console.log(`FAIL - ${disagreements} of ${COUNT} generated policies: TypeScript and the binary disagree`);
} else {
    passed++;
    console.log(`ok - ${COUNT} generated policies (${accepted} valid): TypeScript and the binary agree on verdict and paths (in order)`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
