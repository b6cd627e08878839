/**
 * The refusal report's reader on lines as the supervisor writes them
 * (tests/egress-proxy/proxy-report.sh checks the binary's side; the reader
 * against a live binary is release/lib/report-reader.mjs).
 */
import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { test } from "node:test";
import { parseRefusalLine, readRefusalReport, RefusalReportError } from "../src/refusal-report.js";

const line = JSON.stringify({
    event: "egress-refused",
    time: "2026-12-01T10:55:23.452Z",
    frontEnd: "http",
    host: "blocked.example",
    port: 443,
    address: null,
    rule: "allowedHosts",
    reason: "'blocked.example' is not in network.allowedHosts (2 entries)",
    dropped: 0,
});

test("a supervisor line parses into its typed record", () => {
    const r = parseRefusalLine(line);
    assert.ok(r.event === "egress-refused");
    assert.equal(r.host, "blocked.example");
    assert.equal(r.port, 443);
    assert.equal(r.address, null);
    assert.equal(r.rule, "allowedHosts");
});

test("an egress-failed line parses, and is told from a refusal", () => {
    const failed = JSON.stringify({
        event: "egress-failed",
        time: "2026-12-03T06:08:59.457Z",
        frontEnd: "socks5",
        host: "gone.test",
        port: 443,
        cause: "name-resolution",
        upstream: null,
        upstreamStatus: null,
        reason: "cannot resolve 'gone.test': no such name",
        dropped: 0,
    });
    const r = parseRefusalLine(failed);
    assert.ok(r.event === "egress-failed");
    assert.equal(r.cause, "name-resolution");
    assert.throws(() => parseRefusalLine(failed.replace("name-resolution", "firewall")), RefusalReportError);
});

test("an upstream proxy's refusal parses with its status", () => {
    const refused = JSON.stringify({
        event: "egress-failed",
        time: "2026-12-03T06:08:59.457Z",
        frontEnd: "http",
        host: "registry.example",
        port: 443,
        cause: "upstream-refused",
        upstream: "http://proxy.corp.example:3128",
        upstreamStatus: 407,
        reason: 'the upstream proxy http://proxy.corp.example:3128 refused: "HTTP/1.1 407 Proxy Authentication Required"',
        dropped: 0,
    });
    const r = parseRefusalLine(refused);
    assert.ok(r.event === "egress-failed" && r.cause === "upstream-refused");
    assert.equal(r.upstreamStatus, 407);
    assert.throws(() => parseRefusalLine(refused.replace('"upstreamStatus":407', '"upstreamStatus":"407"')), RefusalReportError);
});

test("lines that are not refusal records are refused, saying why", () => {
    const base = JSON.parse(line) as Record<string, unknown>;
    const bad: [string, string][] = [
        ["not json", "{"],
        ["an extra field", JSON.stringify({ ...base, extra: 1 })],
        ["a missing field", JSON.stringify({ ...base, dropped: undefined })],
        ["port 0", JSON.stringify({ ...base, port: 0 })],
        ["port 65536", JSON.stringify({ ...base, port: 65536 })],
        ["an unknown rule", JSON.stringify({ ...base, rule: "firewall" })],
        ["an unknown front-end", JSON.stringify({ ...base, frontEnd: "ftp" })],
        ["no event", JSON.stringify({ ...base, event: undefined })],
        ["the reader's own 'unknown'", JSON.stringify({ ...base, event: "unknown" })],
        ["a local time", JSON.stringify({ ...base, time: "2026-12-01 10:55:23" })],
        ["an array", "[]"],
    ];
    for (const [what, text] of bad)
        assert.throws(() => parseRefusalLine(text), RefusalReportError, what);
});

test("readRefusalReport yields each record as its line completes, across chunk boundaries", async () => {
    const stream = new PassThrough();
    const second = line.replace('"port":443', '"port":22').replace('"frontEnd":"http"', '"frontEnd":"socks5"');
    const text = `${line}\n${second}\n`;
    const got: number[] = [];
    const reading = (async () => {
        for await (const r of readRefusalReport(stream)) got.push(r.event === "egress-refused" ? r.port : -1);
    })();
    for (let i = 0; i < text.length; i += 7) stream.write(text.slice(i, i + 7));
    stream.end();
    await reading;
    assert.deepEqual(got, [443, 22]);
});

test("readRefusalReport reads bytes split inside a multi-byte character", async () => {
    const withUtf8 = line.replace("(2 entries)", "(2 entries) é");
    const bytes = new TextEncoder().encode(`${withUtf8}\n`);
    const cut = bytes.indexOf(0xc3) + 1; // between the two bytes of "é"
    async function* chunks() {
        yield bytes.slice(0, cut);
        yield bytes.slice(cut);
    }
    const got = [];
    for await (const r of readRefusalReport(chunks())) got.push(r.event === "egress-refused" ? r.reason : "");
    assert.deepEqual(got, ["'blocked.example' is not in network.allowedHosts (2 entries) é"]);
});

test("readRefusalReport throws on a corrupt line rather than skipping it", async () => {
    const stream = new PassThrough();
    stream.end(`${line}\n{"event":"egress-refused"}\n`);
    await assert.rejects(async () => {
        for await (const _ of readRefusalReport(stream)) void _;
    }, RefusalReportError);
});

const t = "2026-12-02T00:04:38.094Z";
test("every kind the sandbox writes parses into its typed record", () => {
    const unix = parseRefusalLine(JSON.stringify({ event: "unix-connect-refused", time: t, path: "@x", reason: "r", dropped: 0 }));
    assert.ok(unix.event === "unix-connect-refused" && unix.path === "@x");
    const ip = parseRefusalLine(JSON.stringify({ event: "ip-connect-refused", time: t, address: "192.0.2.7", port: 443, reason: "r", dropped: 1 }));
    assert.ok(ip.event === "ip-connect-refused" && ip.port === 443 && ip.dropped === 1);
    const meta = parseRefusalLine(JSON.stringify({ event: "metadata-refused", time: t, call: "chmod", path: "/etc/x", reason: "r", dropped: 0 }));
    assert.ok(meta.event === "metadata-refused" && meta.call === "chmod");
    const exited = parseRefusalLine(JSON.stringify({ event: "workload-ended", time: t, status: 3, killedBySupervisor: false, dropped: 0 }));
    assert.ok(exited.event === "workload-ended" && "status" in exited && exited.status === 3);
    const killed = parseRefusalLine(JSON.stringify({ event: "workload-ended", time: t, signal: "SIGKILL", killedBySupervisor: true, dropped: 0 }));
    assert.ok(killed.event === "workload-ended" && "signal" in killed && killed.signal === "SIGKILL");
});

test("a known kind with a wrong field is refused; an unknown kind is surfaced, not dropped", () => {
    const bad = [
        { event: "unix-connect-refused", time: t, path: "/s", dropped: 0 },
        { event: "workload-ended", time: t, status: 3, signal: "SIGTERM", killedBySupervisor: false, dropped: 0 },
        { event: "workload-ended", time: t, status: 256, killedBySupervisor: false, dropped: 0 },
        { event: "ip-connect-refused", time: t, address: "a", port: 70000, reason: "r", dropped: 0 },
        { event: "limit-reached" },
        { event: "limit-reached", time: t, limit: "memory", dropped: 0 },
    ];
    for (const v of bad) assert.throws(() => parseRefusalLine(JSON.stringify(v)), RefusalReportError, JSON.stringify(v));
    const u = parseRefusalLine(JSON.stringify({ event: "cpu-reached", time: t, limit: "cpu", dropped: 0 }));
    assert.ok(u.event === "unknown" && u.kind === "cpu-reached" && u.fields.limit === "cpu");
});

test("a limit-reached line is read, and a malformed one refused", () => {
    const line =
        '{"event":"limit-reached","time":"2026-12-01T10:55:23.467Z","limit":"memoryBytes","value":67108864,"count":1,"dropped":0}';
    const got = parseRefusalLine(line);
    assert.equal(got.event, "limit-reached");
    assert.throws(() => parseRefusalLine(line.replace('"memoryBytes"', '"cpus"')), RefusalReportError);
    assert.throws(() => parseRefusalLine(line.replace('"count":1', '"count":0')), RefusalReportError);
});

test("a sandbox-died line is read, and a malformed one refused", () => {
    const line = '{"event":"sandbox-died","time":"2026-12-04T02:11:33.070Z","process":"init","signal":"SIGKILL","dropped":0}';
    const got = parseRefusalLine(line);
    assert.ok(got.event === "sandbox-died" && got.process === "init" && got.signal === "SIGKILL");
    assert.throws(() => parseRefusalLine(line.replace('"SIGKILL"', '"9"')), RefusalReportError);
    assert.throws(() => parseRefusalLine(line.replace('"process":"init",', "")), RefusalReportError);
});
