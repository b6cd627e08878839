/**
 * explainSandbox and briefFor against the real binary: HAS_SUPERVISOR_BINARY
 * names it (release/check sets it to the static build; `make` users can
 * point it at _b/happy-agent-supervisor).  Skipped only when it is unset.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, existsSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { briefFor, explainSandbox, ExplainError, type ExplanationVerdict } from "../src/explain.js";

const binary = process.env.HAS_SUPERVISOR_BINARY ?? "";
const skip = binary ? false : "HAS_SUPERVISOR_BINARY is not set";
const policy = { mode: "workspace_write", network: { egress: false, localBinding: false } };

test("explainSandbox: the typed result, and a write it allows is made by a real run", { skip }, async () => {
    const ws = mkdtempSync(join(tmpdir(), "has-explain-"));
    try {
        const e = await explainSandbox(policy, {
            binaryPath: binary, cwd: ws, write: ["made.txt", "/etc/has-explain-test"], read: ["/etc/hostname"],
        });
        assert.equal(e.version, 1);
        assert.equal(e.launch.ok, true);
        assert.ok(e.backends.length > 0 && e.items.some((i) => i.kind === "writable" && i.subject === ws));
        assert.equal(e.verdicts.length, 3);
        const find = (given: string): ExplanationVerdict => {
            const v = e.verdicts.find((x) => x.given === given);
            assert.ok(v, given);
            return v;
        };
        const [made, etc, read] = [find("made.txt"), find("/etc/has-explain-test"), find("/etc/hostname")];
        assert.deepEqual([made.operation, made.verdict, made.path], ["write", "allowed", join(ws, "made.txt")]);
        assert.deepEqual([etc.operation, etc.verdict], ["write", "refused"]);
        assert.ok(etc.rule && etc.backend);
        assert.equal(read.operation, "read");
        const run = spawnSync(binary, ["--policy", JSON.stringify(policy), "--", "/bin/sh", "-c",
            "echo x >made.txt; echo x >/etc/has-explain-test"], { cwd: ws });
        assert.ok(existsSync(join(ws, "made.txt")), "the allowed write was made");
        assert.ok(!existsSync("/etc/has-explain-test"), "the refused write was not");
        assert.notEqual(run.status, null);
    } finally {
        rmSync(ws, { recursive: true, force: true });
    }
});

test("briefFor: the brief's plain lines, the same as the JSON's", { skip }, async () => {
    const brief = await briefFor(policy, { binaryPath: binary });
    assert.match(brief, /^writable: /m);
    assert.equal(brief, (await explainSandbox(policy, { binaryPath: binary })).brief);
    const text = spawnSync(binary, ["--explain=brief", "--policy", JSON.stringify(policy)], { encoding: "utf8" });
    assert.equal(text.stdout.trimEnd(), brief.trimEnd());
});

test("explainSandbox: a policy the binary refuses throws its message", { skip }, async () => {
    await assert.rejects(explainSandbox({ mode: "nope" }, { binaryPath: binary }), (e: unknown) =>
        e instanceof ExplainError && /mode/.test(e.message));
});
