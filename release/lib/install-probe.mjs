// release/lib/install-probe.mjs — run from inside a project that installed
// the packed packages (release/test-install copies it there). Uses the
// package exactly as a consumer would, by name, and prints one line per
// assertion: "ok - ..." or "FAIL - ...".
//
//   node install-probe.mjs host        resolveSupervisorBinary() + a real run
//   node install-probe.mjs arch ARCH   resolveLinuxSupervisorBinary(ARCH)
//   node install-probe.mjs missing     resolution must throw naming the package
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import {
    parseSupervisorPolicy,
    resolveLinuxSupervisorBinary,
    resolveSupervisorBinary,
} from "@slopus/happy-agent-supervisor";

let failures = 0;
const ok = (what) => console.log(`ok - ${what}`);
const fail = (what) => {
    failures++;
    console.log(`FAIL - ${what}`);
};
const check = (cond, what) => (cond ? ok(what) : fail(what));

/**
 * Run the supervisor with the policy on descriptor 3, as the package README
 * shows; resolves to { status, signal, stdout, stderr }.
 */
function runPolicy(binary, policy, argv, cwd) {
    const text = JSON.stringify(parseSupervisorPolicy(policy));
    return new Promise((resolve, reject) => {
        const child = spawn(binary, ["--policy-fd", "3", "--", ...argv], {
            cwd,
            stdio: ["ignore", "pipe", "pipe", "pipe"],
        });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (d) => (stdout += d));
        child.stderr.on("data", (d) => (stderr += d));
        child.on("error", reject);
        child.on("close", (status, signal) => resolve({ status, signal, stdout, stderr }));
        child.stdio[3].on("error", () => {}); // EPIPE if it refuses before reading
        child.stdio[3].end(text);
    });
}

async function host() {
    const binary = resolveSupervisorBinary();
    check(
        binary.endsWith("node_modules/@slopus/happy-agent-supervisor-linux-x64/vendor/x86_64-unknown-linux-musl/bin/happy-agent-supervisor") ||
            binary.endsWith("node_modules/@slopus/happy-agent-supervisor-linux-arm64/vendor/aarch64-unknown-linux-musl/bin/happy-agent-supervisor"),
        `resolveSupervisorBinary() is the installed platform package: ${binary}`,
    );
    const scratch = mkdtempSync(join(process.cwd(), "run-"));
    const workspace = join(scratch, "workspace");
    const outside = join(scratch, "outside");
    mkdirSync(workspace);
    mkdirSync(outside);
    // A sandboxed run first: the workspace is writable, everything else is not.
    const sandboxed = {
        mode: "workspace_write",
        network: { egress: false, localBinding: false },
    };
    // The write outside may fail or land in a private copy (linux-ns gives
    // /tmp a throwaway overlay); either way it must not reach the host.
    const script = `echo inside > ./proof && cat ./proof && { echo escaped > '${outside}/escape'; } 2>/dev/null; exit 0`;
    let r = await runPolicy(binary, sandboxed, ["/bin/sh", "-c", script], workspace);
    if (r.status === 125 && /no enforcement backend/.test(r.stderr)) {
        // The Linux backend is not in this build yet: say so, and still prove
        // the binary runs a workload, under the one policy it can enforce.
        console.log(`# the binary has no Linux enforcement backend yet (${r.stderr.trim()}); running full_access instead`);
        r = await runPolicy(binary, { mode: "full_access", network: { egress: true, localBinding: true } }, ["/bin/sh", "-c", "echo inside > ./proof && cat ./proof && exit 0"], workspace);
        check(r.status === 0 && r.stdout.trim() === "inside", `full_access run of /bin/sh: status ${r.status}, stdout ${JSON.stringify(r.stdout)}, stderr ${JSON.stringify(r.stderr)}`);
        return;
    }
    check(r.status === 0, `sandboxed (workspace_write, no egress) run: status ${r.status}, stderr ${JSON.stringify(r.stderr)}`);
    check(r.stdout.trim() === "inside", `the sandboxed workload wrote and read its workspace: ${JSON.stringify(r.stdout)}`);
    check(existsSync(join(workspace, "proof")) && readFileSync(join(workspace, "proof"), "utf8") === "inside\n", "the workspace write is visible outside");
    check(!existsSync(join(outside, "escape")), "a write outside the workspace did not reach the host");
    // Outside /tmp the root filesystem is read-only in the sandbox: the write
    // itself must fail (exit 9), and of course leave nothing behind.
    const home = process.env.HOME ?? "";
    if (home.startsWith("/") && !home.startsWith("/tmp")) {
        const probe = join(home, `.has-release-escape-probe-${process.pid}`);
        const w = await runPolicy(binary, sandboxed, ["/bin/sh", "-c", `if echo x > '${probe}'; then exit 0; else exit 9; fi`], workspace);
        const leaked = existsSync(probe);
        if (leaked) rmSync(probe);
        check(w.status === 9 && !leaked, `a write to ${home} fails inside the sandbox: status ${w.status}, file left on the host: ${leaked}`);
    }
    // A policy the binary must refuse on its own (the API would refuse it too).
    const refused = spawnSync(binary, ["--policy", '{"mode":"read_only","network":{"egress":false}}', "--", "/bin/true"], { encoding: "utf8" });
    check(refused.status === 125 && refused.stderr.includes("$.network.localBinding"), `an invalid policy exits 125 naming the field: ${refused.status} ${refused.stderr.trim()}`);
}

function arch(architecture) {
    const binary = resolveLinuxSupervisorBinary(architecture);
    console.log(binary);
    check(existsSync(binary), `resolveLinuxSupervisorBinary(${architecture}) exists: ${binary}`);
}

function missing() {
    try {
        const binary = resolveSupervisorBinary();
        fail(`resolveSupervisorBinary() without the platform package returned ${binary}`);
    } catch (error) {
        check(/happy-agent-supervisor-linux-(x64|arm64)/.test(error.message) && /reinstall/i.test(error.message), `it throws naming the package: ${error.message}`);
    }
}

const [mode, value] = process.argv.slice(2);
if (mode === "host") await host();
else if (mode === "arch") arch(value);
else if (mode === "missing") missing();
else throw new Error(`unknown mode ${mode}`);
process.exitCode = failures ? 1 : 0;
