/**
 * The shared policy corpus (tests/core/policy-corpus/) through the TypeScript
 * parser: the C unit test runs the same files, so any disagreement between
 * the two parsers fails one of them. invalid-text/ holds byte-level cases
 * (malformed JSON, NUL bytes, bad UTF-8, duplicate keys) that only the C side
 * can see: TypeScript callers hand over already-parsed values.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { parseSupervisorPolicy, SupervisorPolicyError } from "../src/policy.js";

// dist-test/test/ → the checkout root is four levels up.
const corpus =
    process.env.HAS_POLICY_CORPUS ??
    resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..", "tests", "core", "policy-corpus");

function cases(kind: "valid" | "invalid"): string[] {
    return readdirSync(join(corpus, kind))
        .filter((f) => f.endsWith(".json"))
        .sort();
}

test("the corpus is there and not trivially small", () => {
    assert.ok(cases("valid").length >= 5, `too few valid cases in ${corpus}`);
    assert.ok(cases("invalid").length >= 20, `too few invalid cases in ${corpus}`);
});

for (const file of cases("valid")) {
    test(`valid/${file} is accepted`, () => {
        const value: unknown = JSON.parse(readFileSync(join(corpus, "valid", file), "utf8"));
        parseSupervisorPolicy(value);
    });
}

for (const file of cases("invalid")) {
    test(`invalid/${file} is refused, naming exactly the expected paths`, () => {
        const value: unknown = JSON.parse(readFileSync(join(corpus, "invalid", file), "utf8"));
        const expected = readFileSync(join(corpus, "invalid", file.replace(/\.json$/, ".paths")), "utf8")
            .split("\n")
            .map((line) => line.trim())
            .filter((line) => line !== "" && !line.startsWith("#"));
        assert.ok(expected.length > 0, `${file}: its .paths file lists no path`);
        let thrown: unknown;
        try {
            parseSupervisorPolicy(value);
        } catch (error) {
            thrown = error;
        }
        assert.ok(thrown instanceof SupervisorPolicyError, `${file} was accepted`);
        for (const path of expected)
            assert.ok(thrown.message.includes(`${path}: `), `${file}: the message does not name ${path}: ${thrown.message}`);
        // Exactly the listed paths, as the C corpus test demands of its side.
        const reported = [...new Set(thrown.problems.map((p) => p.path))].sort();
        assert.deepEqual(reported, [...new Set(expected)].sort(), `${file}: ${thrown.message}`);
        // NAME.messages, where there is one: each line an error, word for word.
        const messages = join(corpus, "invalid", file.replace(/\.json$/, ".messages"));
        if (!existsSync(messages)) return;
        const said = thrown.problems.map((p) => `${p.path}: ${p.message}`);
        for (const line of readFileSync(messages, "utf8").split("\n").filter((l) => l !== ""))
            assert.ok(said.includes(line), `${file}: no problem reads "${line}": ${thrown.message}`);
    });
}
