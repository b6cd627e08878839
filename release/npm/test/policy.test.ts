import assert from "node:assert/strict";
import { test } from "node:test";
import { Value } from "@sinclair/typebox/value";
import { parseSupervisorPolicy, SupervisorPolicyError } from "../src/policy.js";
import { hostEntryProblem, policyPathProblem } from "../src/policy-rules.js";
import { AllowedHostEntrySchema, PolicyPathSchema } from "../src/policy-schema.js";

const minimal = { mode: "workspace_write", network: { egress: false, localBinding: false } };

function problemsOf(value: unknown): Map<string, string> {
    try {
        parseSupervisorPolicy(value);
    } catch (error) {
        assert.ok(error instanceof SupervisorPolicyError, `not a SupervisorPolicyError: ${String(error)}`);
        return new Map(error.problems.map((p) => [p.path, p.message]));
    }
    assert.fail(`accepted: ${JSON.stringify(value)}`);
}

test("a minimal policy is accepted and returned as a copy", () => {
    const input = structuredClone(minimal);
    const policy = parseSupervisorPolicy(input);
    assert.deepEqual(policy, minimal);
    assert.notEqual(policy, input);
    assert.notEqual(policy.network, input.network);
});

test("one Error lists every offending field in the C parser's format", () => {
    const value = {
        mode: "everything",
        deniedReadPaths: ["relative", "/fine", "/a/../b"],
        network: { egress: "yes", allowedHosts: ["*", "ok.example.com"], surprise: 1 },
    };
    let message = "";
    try {
        parseSupervisorPolicy(value);
    } catch (error) {
        message = (error as Error).message;
    }
    assert.match(message, /^invalid supervisor policy: /);
    for (const expected of [
        '$.mode: must be one of "read_only", "workspace_write", "auto", "full_access"',
        "$.deniedReadPaths[0]: must be an absolute path",
        '$.deniedReadPaths[2]: contains a "." or ".." component',
        "$.network.egress: must be a boolean, not a string",
        "$.network.localBinding: required field is missing",
        "$.network.allowedHosts[0]: a bare '*' is refused",
        "$.network.surprise: unknown field",
    ])
        assert.ok(message.includes(expected), `missing "${expected}" in: ${message}`);
    assert.ok(!message.includes("[1]"), "a valid entry was reported");
    assert.equal(message.split("\n").length, 1, "the message is one line");
});

test("the document itself must be an object", () => {
    for (const value of [null, [], "policy", 3, true])
        assert.match(problemsOf(value).get("$") ?? "", /^the policy must be a JSON object, not /);
});

test("values are judged as JSON.stringify would send them", () => {
    // toJSON, undefined members and Dates mean what JSON says they mean.
    const withUndefined = { ...minimal, allowedReadPaths: undefined };
    assert.deepEqual(parseSupervisorPolicy(withUndefined), minimal);
    const viaToJson = { toJSON: () => minimal };
    assert.deepEqual(parseSupervisorPolicy(viaToJson), minimal);
    assert.match(problemsOf({ ...minimal, network: new Date(0) }).get("$.network") ?? "", /not a string/);
    const cyclic: Record<string, unknown> = { ...minimal };
    cyclic.self = cyclic;
    assert.match(problemsOf(cyclic).get("$") ?? "", /not JSON data/);
    assert.match(problemsOf({ ...minimal, mode: 1n }).get("$") ?? "", /not JSON data/);
});

test("a policy over 1 MiB is refused as a whole", () => {
    const paths = Array.from({ length: 300 }, (_, i) => `/${"x".repeat(4000)}${i}`);
    assert.match(problemsOf({ ...minimal, allowedReadPaths: paths }).get("$") ?? "", /larger than the limit of 1 MiB/);
});

test("UTF-8 byte limits, not UTF-16 lengths", () => {
    const twoByte = "é"; // 2 bytes in UTF-8, 1 UTF-16 unit
    const path4095 = `/${"a".repeat(4094)}`;
    const path4096 = `/${twoByte.repeat(2047)}a`; // 1 + 4094 + 1 bytes
    assert.doesNotThrow(() => parseSupervisorPolicy({ ...minimal, allowedReadPaths: [path4095] }));
    assert.equal(problemsOf({ ...minimal, allowedReadPaths: [path4096] }).get("$.allowedReadPaths[0]"), "is longer than 4095 bytes");
    const host253 = `${"a".repeat(249)}.com`;
    const host254 = `${twoByte.repeat(125)}.com`; // 250 + 4 bytes
    const proxy = { egress: true, localBinding: false, outgoingProxy: { frontEnds: ["http"] } };
    assert.doesNotThrow(() => parseSupervisorPolicy({ ...minimal, network: { ...proxy, allowedHosts: [host253] } }));
    assert.equal(
        problemsOf({ ...minimal, network: { ...proxy, allowedHosts: [host254] } }).get("$.network.allowedHosts[0]"),
        "names a host longer than 253 bytes",
    );
});

test("lone surrogates are refused (they have no UTF-8 form)", () => {
    for (const bad of ["/tmp/\ud800", "/tmp/\udc00x", "/\udfff\ud800"])
        assert.match(problemsOf({ ...minimal, deniedReadPaths: [bad] }).get("$.deniedReadPaths[0]") ?? "", /lone surrogate/);
    assert.doesNotThrow(() => parseSupervisorPolicy({ ...minimal, deniedReadPaths: ["/tmp/\ud83d\ude00"] }));
});

test("a repeated front-end is reported at the repeat", () => {
    const value = {
        ...minimal,
        network: { egress: true, localBinding: true, outgoingProxy: { frontEnds: ["http", "bogus", "http", "socks5"] } },
    };
    const problems = problemsOf(value);
    assert.equal(problems.get("$.network.outgoingProxy.frontEnds[1]"), 'must be one of "http", "socks5", "transparent"');
    assert.equal(problems.get("$.network.outgoingProxy.frontEnds[2]"), "names a front-end twice");
    assert.equal(problems.size, 2);
});

test("combination rules run only on an otherwise valid document (as in C)", () => {
    const value = { mode: "full_access", deniedReadPaths: ["/x"], network: { egress: false, localBinding: "no" } };
    const problems = problemsOf(value);
    assert.deepEqual([...problems.keys()], ["$.network.localBinding"]);
});

test("key names in paths are printable, like the C side prints them", () => {
    const problems = problemsOf({ ...minimal, "we\u0001ird\u00e9": 1, ["k".repeat(100)]: 2 });
    assert.ok(problems.has("$.we?ird??"));
    assert.ok(problems.has(`$.${"k".repeat(75)}...`));
});

// The exported schemas must agree with the rules wherever JSON Schema can say
// the rule at all (everything but UTF-8 byte limits and lone surrogates).
const pathSamples = [
    "/", "/a", "/a/", "/a//", "//", "/a//b", "/.", "/./", "/..", "/../", "/a/.", "/a/..", "/a/./b",
    "/.a", "/..a", "/a..", "/...", "/a/.../b", "a", "", "./a", "/a\nb", "/a\u007fb", "/a\u001f", "/a b",
    "/é/ü", "/tmp/\u0085", "/a/b/c/d/", "/a/b//", `/${"a".repeat(4094)}`, `/${"a".repeat(4095)}`,
];
const hostSamples = [
    "example.com", "*.example.com", "*", "*.", "**.a", "a*", "a.*.b", "*.a*", "*a.com", ".", "a..b",
    "", " a", "a b", "a\tb", "a\u007f", "a/b", "http://a", "u@a", "[::1]", "10.0.0.1", "é.example",
    "a\u00a0b", `${"a".repeat(253)}`, `${"a".repeat(254)}`, "*.*", "*.a.*",
    "example.com:443", "*.example.com:443", "[2001:db8::1]:22", "127.0.0.1:8080", "2001:db8::1", "::1",
    "a:1", "a:65535", "a:65536", "a:0", "a:080", "a:", ":1", "*.:1", "*.a:1", "[::1", "[::1]x", "[::1]:",
    "[]", "[]:1", "a]", "a[b]", "[[::1]]", "[::1]:22]", "a:b", "a:b:c", "*.a:b:c", "*.:a:b",
    `${"a".repeat(253)}:443`, `${"a".repeat(254)}:443`, `[${"a".repeat(253)}]`, `[${"a".repeat(254)}]:1`,
    `${"a:".repeat(126)}a`, `${"a:".repeat(127)}`, `*.${"a".repeat(251)}`, `*.${"a".repeat(252)}:1`,
];

test("PolicyPathSchema agrees with the path rules", () => {
    for (const sample of pathSamples)
        assert.equal(Value.Check(PolicyPathSchema, sample), policyPathProblem(sample) === undefined, JSON.stringify(sample));
});

test("AllowedHostEntrySchema agrees with the host entry rules", () => {
    for (const sample of hostSamples)
        assert.equal(Value.Check(AllowedHostEntrySchema, sample), hostEntryProblem(sample) === undefined, JSON.stringify(sample));
});

test("problems come in the C parser's order, capped at 32 plus a count", () => {
    const value = {
        network: { localBinding: "x", zz: 1, allowedHosts: ["*"], egress: 1, outgoingProxy: { frontEnds: [], more: 1 } },
        deniedWritePaths: ["r"],
        mode: 0,
        extra: true,
        allowedReadPaths: ["a", "b"],
    };
    assert.deepEqual(
        [...problemsOf(value).keys()],
        [
            "$.extra", "$.mode", "$.allowedReadPaths[0]", "$.allowedReadPaths[1]", "$.deniedWritePaths[0]",
            "$.network.zz", "$.network.egress", "$.network.localBinding", "$.network.allowedHosts[0]",
            "$.network.outgoingProxy.more", "$.network.outgoingProxy.frontEnds",
        ],
    );
    let error: SupervisorPolicyError | undefined;
    try {
        parseSupervisorPolicy({ ...minimal, allowedReadPaths: Array.from({ length: 40 }, () => "relative") });
    } catch (e) {
        error = e as SupervisorPolicyError;
    }
    assert.equal(error?.problems.length, 33);
    assert.deepEqual(error?.problems[32], { path: "$", message: "and 8 more problems" });
    assert.equal(error?.problems[31]?.path, "$.allowedReadPaths[31]");
});

test("scratch: optional, sizeBytes a whole number of bytes within bounds, in the C parser's words", () => {
    assert.deepEqual(parseSupervisorPolicy({ ...minimal, scratch: {} }).scratch, {});
    assert.equal(parseSupervisorPolicy({ ...minimal, scratch: { sizeBytes: 1 << 20 } }).scratch?.sizeBytes, 1 << 20);
    const words = "must be a whole number of bytes from 1048576 (1 MiB) to 68719476736 (64 GiB)";
    for (const sizeBytes of [0, 1048575, 1048576.5, 68719476737, "64m", null])
        assert.equal(problemsOf({ ...minimal, scratch: { sizeBytes } }).get("$.scratch.sizeBytes"), words);
    assert.equal(problemsOf({ ...minimal, scratch: true }).get("$.scratch"), "must be an object, not a boolean");
    assert.equal(problemsOf({ ...minimal, scratch: { tmp: true } }).get("$.scratch.tmp"), "unknown field");
    const full = { mode: "full_access", network: { egress: true, localBinding: true }, scratch: {} };
    assert.match(problemsOf(full).get("$.scratch") ?? "", /^needs a sandbox/);
});
