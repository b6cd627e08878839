// release/lib/report-reader.mjs — the TypeScript refusal-report reader
// against the real binary.
//
//   node report-reader.mjs BINARY
//
// Runs curl in a sandbox whose proxy refuses two destinations (a host not
// listed, and a listed host on another port; one per front-end) and cannot
// resolve an allowed one (.invalid), with the report on descriptor 3 as a
// Node pipe, and reads it with readRefusalReport(): the two refusals, the
// failure, then the workload-ended line.
// Needs the sandbox (linux-ns) and curl.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const { readRefusalReport, parseSupervisorPolicy } = await import(join(here, "..", "npm", "dist", "index.js"));
const [binary] = process.argv.slice(2);

const policy = parseSupervisorPolicy({
    mode: "read_only",
    network: { egress: true, localBinding: false, allowedHosts: ["allowed.example:443", "gone.invalid"], outgoingProxy: { frontEnds: ["http", "socks5"] } },
});
const script = 'curl -s -o /dev/null http://blocked.example/; curl -s -o /dev/null -x "$ALL_PROXY" http://allowed.example:80/; ' +
    "curl -s -o /dev/null http://gone.invalid/; exit 0";
const child = spawn(binary, ["--refusal-report", "3", "--policy", JSON.stringify(policy), "--", "/bin/sh", "-c", script], {
    stdio: ["ignore", "inherit", "inherit", "pipe"],
});
const records = [];
for await (const r of readRefusalReport(child.stdio[3])) records.push(r);
const code = await new Promise((resolve) => child.on("close", resolve));

let passed = 0;
let failed = 0;
function check(ok, what) {
    if (ok) passed++;
    else failed++;
    console.log(`${ok ? "ok" : "FAIL"} - ${what}`);
}
check(code === 0, `the sandboxed run exited 0 (got ${code})`);
check(records.length === 4, `two refusals, a failure and the end read (got ${JSON.stringify(records)})`);
const [a, b, c, end] = records;
check(a?.frontEnd === "http" && a.host === "blocked.example" && a.port === 80 && a.rule === "allowedHosts",
    `http refusal of blocked.example:80 (${JSON.stringify(a)})`);
check(b?.frontEnd === "socks5" && b.host === "allowed.example" && b.port === 80 && /port 80/.test(b.reason),
    `socks5 refusal of allowed.example on a port it is not allowed (${JSON.stringify(b)})`);
check(c?.event === "egress-failed" && c.host === "gone.invalid" && c.cause === "name-resolution" && /cannot resolve/.test(c.reason),
    `an allowed name that does not resolve is a failure, not a refusal (${JSON.stringify(c)})`);
check(end?.event === "workload-ended" && end.status === 0 && end.killedBySupervisor === false,
    `the last line says the workload exited 0 (${JSON.stringify(end)})`);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
