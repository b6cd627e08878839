import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, test } from "node:test";
import {
    resolveLinuxSupervisorBinaryFrom,
    resolveSupervisorBinaryFrom,
    type LookupRoots,
} from "../src/resolve.js";
import { ACCEPTED_ARCHITECTURES, linuxTargetFor } from "../src/targets.js";

const scratch = mkdtempSync(join(tmpdir(), "has-resolve-"));
after(() => rmSync(scratch, { recursive: true, force: true }));
let counter = 0;

function fakeExecutable(path: string): string {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, "#!/bin/sh\nexit 0\n");
    chmodSync(path, 0o755);
    return path;
}

/** A project with the root package installed and, optionally, platform packages. */
function project(platformPackages: Array<{ suffix: string; triple: string; name?: string }>): LookupRoots {
    const dir = join(scratch, `project-${counter++}`);
    const packageRoot = join(dir, "node_modules", "@slopus", "happy-agent-supervisor");
    mkdirSync(packageRoot, { recursive: true });
    writeFileSync(join(packageRoot, "package.json"), JSON.stringify({ name: "@slopus/happy-agent-supervisor", version: "9.8.7" }));
    for (const p of platformPackages) {
        const root = join(dir, "node_modules", "@slopus", `happy-agent-supervisor-${p.suffix}`);
        mkdirSync(root, { recursive: true });
        writeFileSync(
            join(root, "package.json"),
            JSON.stringify({ name: p.name ?? "@slopus/happy-agent-supervisor", version: `9.8.7-${p.suffix}` }),
        );
        fakeExecutable(join(root, "vendor", p.triple, "bin", "happy-agent-supervisor"));
    }
    return { packageRoot, platform: "linux", arch: "x64" };
}

test("every accepted architecture spelling maps to a Linux target", () => {
    assert.deepEqual(ACCEPTED_ARCHITECTURES.sort(), ["aarch64", "amd64", "arm64", "x64", "x86_64"]);
    for (const a of ["amd64", "x64", "x86_64"]) assert.equal(linuxTargetFor(a).triple, "x86_64-unknown-linux-musl");
    for (const a of ["arm64", "aarch64"]) assert.equal(linuxTargetFor(a).triple, "aarch64-unknown-linux-musl");
    for (const a of ["AMD64", "i386", "arm", "", "toString", "__proto__"])
        assert.throws(() => linuxTargetFor(a), /unsupported Linux architecture/);
});

test("an explicit path wins, and must be an executable file", () => {
    const roots = project([{ suffix: "linux-x64", triple: "x86_64-unknown-linux-musl" }]);
    const mine = fakeExecutable(join(scratch, "mine", "supervisor"));
    assert.equal(resolveSupervisorBinaryFrom(roots, mine), mine);
    assert.equal(resolveLinuxSupervisorBinaryFrom(roots, "arm64", mine), mine);
    assert.throws(() => resolveSupervisorBinaryFrom(roots, join(scratch, "absent")), /not an executable file/);
    assert.throws(() => resolveSupervisorBinaryFrom(roots, scratch), /not an executable file/);
    assert.throws(() => resolveSupervisorBinaryFrom(roots, ""), /not an executable file/);
});

test("the installed platform package is found for the host and by architecture", () => {
    const roots = project([
        { suffix: "linux-x64", triple: "x86_64-unknown-linux-musl" },
        { suffix: "linux-arm64", triple: "aarch64-unknown-linux-musl" },
    ]);
    const x64 = resolveSupervisorBinaryFrom(roots);
    assert.match(x64, /happy-agent-supervisor-linux-x64\/vendor\/x86_64-unknown-linux-musl\/bin\/happy-agent-supervisor$/);
    assert.equal(resolveLinuxSupervisorBinaryFrom(roots, "amd64"), x64);
    assert.match(
        resolveLinuxSupervisorBinaryFrom(roots, "aarch64"),
        /happy-agent-supervisor-linux-arm64\/vendor\/aarch64-unknown-linux-musl\/bin\/happy-agent-supervisor$/,
    );
    assert.match(
        resolveSupervisorBinaryFrom({ ...roots, arch: "arm64" }),
        /aarch64-unknown-linux-musl/,
    );
});

test("a missing platform package throws naming the package to reinstall", () => {
    const roots = project([]);
    assert.throws(
        () => resolveSupervisorBinaryFrom(roots),
        (error: Error) =>
            error.message.includes("@slopus/happy-agent-supervisor-linux-x64") &&
            error.message.includes("npm:@slopus/happy-agent-supervisor@9.8.7-linux-x64"),
    );
    assert.throws(() => resolveLinuxSupervisorBinaryFrom({ ...roots, platform: "darwin", arch: "arm64" }, "x64"), /linux-x64/);
});

test("a directory that is not this package's build for the target is refused", () => {
    const roots = project([{ suffix: "linux-x64", triple: "x86_64-unknown-linux-musl", name: "evil" }]);
    assert.throws(() => resolveSupervisorBinaryFrom(roots), /is not the linux-x64 build/);
});

test("Windows and unsupported hosts throw", () => {
    const roots = project([{ suffix: "linux-x64", triple: "x86_64-unknown-linux-musl" }]);
    assert.throws(() => resolveSupervisorBinaryFrom({ ...roots, platform: "win32" }), /does not support Windows/);
    assert.throws(() => resolveSupervisorBinaryFrom({ ...roots, platform: "freebsd" }), /no binary for freebsd-x64/);
    assert.throws(() => resolveSupervisorBinaryFrom({ ...roots, arch: "ia32" }), /no binary for linux-ia32/);
    // A Linux binary may still be asked for from any host, e.g. for a container.
    assert.match(resolveLinuxSupervisorBinaryFrom({ ...roots, platform: "win32" }, "x86_64"), /x86_64-unknown-linux-musl/);
});

test("a checkout falls back to its own build output", () => {
    const checkout = join(scratch, `checkout-${counter++}`);
    const packageRoot = join(checkout, "release", "npm");
    mkdirSync(packageRoot, { recursive: true });
    writeFileSync(join(packageRoot, "package.json"), JSON.stringify({ name: "@slopus/happy-agent-supervisor", version: "1.2.3" }));
    writeFileSync(join(checkout, "configure.ac"), "AC_INIT([happy-agent-supervisor], [1.2.3])\n");
    const roots: LookupRoots = { packageRoot, platform: "linux", arch: "x64" };
    assert.throws(() => resolveSupervisorBinaryFrom(roots), /happy-agent-supervisor-linux-x64/);
    const inTree = fakeExecutable(join(checkout, "_build", "happy-agent-supervisor"));
    assert.equal(resolveSupervisorBinaryFrom(roots), inTree);
    // The host build is no answer for another architecture ...
    assert.throws(() => resolveLinuxSupervisorBinaryFrom(roots, "arm64"), /linux-arm64/);
    // ... a static build in release/dist is, and wins over the host build.
    const arm = fakeExecutable(join(checkout, "release", "dist", "vendor", "aarch64-unknown-linux-musl", "bin", "happy-agent-supervisor"));
    assert.equal(resolveLinuxSupervisorBinaryFrom(roots, "arm64"), arm);
    const x64 = fakeExecutable(join(checkout, "release", "dist", "vendor", "x86_64-unknown-linux-musl", "bin", "happy-agent-supervisor"));
    assert.equal(resolveSupervisorBinaryFrom(roots), x64);
});
