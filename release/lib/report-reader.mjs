// release/lib/report-reader.mjs — the TypeScript refusal-report reader
// against the real binary.
//
//   node report-reader.mjs BINARY
//
// Runs curl in a sandbox whose proxy refuses two destinations (a host not
// listed, and a listed host on another port; one per front-end) and cannot
// resolve an allowed one (.invalid), with the report on descriptor 3 as a
// Node pipe, and reads it with readRefusalReport(): the two refusals, the
// failure, then the workload-ended line.  Then once more through an
// upstream proxy (a Node server here, on the host's loopback) that answers
// every CONNECT 407: an "upstream-refused" failure with its status.
// Needs the sandbox (linux-ns) and curl.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
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

const upstream = createServer((sock) => sock.once("data", () => sock.end("HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 0\r\n\r\n")));
await new Promise((resolve) => upstream.listen(0, "127.0.0.1", resolve));
const upstreamUrl = `http://127.0.0.1:${upstream.address().port}`;
const viaUpstream = parseSupervisorPolicy({
    mode: "read_only",
    network: { egress: true, localBinding: false, allowedHosts: ["allowed.example"],
        outgoingProxy: { frontEnds: ["http"], upstream: `http://agent:pw@${upstreamUrl.slice(7)}` } },
});
const child2 = spawn(binary, ["--refusal-report", "3", "--policy", JSON.stringify(viaUpstream), "--", "/bin/sh", "-c",
    "curl -s -o /dev/null http://allowed.example/; exit 0"], { stdio: ["ignore", "inherit", "inherit", "pipe"] });
const records2 = [];
for await (const r of readRefusalReport(child2.stdio[3])) records2.push(r);
await new Promise((resolve) => child2.on("close", resolve));
upstream.close();
const [u] = records2;
check(u?.event === "egress-failed" && u.cause === "upstream-refused" && u.upstreamStatus === 407 && u.upstream === upstreamUrl &&
    /refused: "HTTP\/1\.1 407/.test(u.reason), `the upstream's 407 is its refusal, with its status (${JSON.stringify(u)})`);
check(!JSON.stringify(records2).includes("pw"), "the upstream's credentials are in no report line");
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
