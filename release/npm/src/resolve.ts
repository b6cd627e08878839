/**
 * Where the supervisor executable lives (release/README.md). Lookup order:
 *   1. an explicit binaryPath;
 *   2. the installed optional platform package
 *      (<alias>/vendor/<triple>/bin/happy-agent-supervisor);
 *   3. this checkout's own build output, when the API runs from a checkout;
 *   4. otherwise throw, naming the package to reinstall.
 */
import { accessSync, constants, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
    BINARY_NAME,
    PACKAGE_NAME,
    hostTargetFor,
    linuxTargetFor,
    platformPackageAlias,
    type SupervisorTarget,
} from "./targets.js";

/** Where to look; tests point these elsewhere, callers never need to. */
export interface LookupRoots {
    /** Directory of this package (holds package.json). */
    readonly packageRoot: string;
    /** Host platform and CPU, as process.platform / process.arch. */
    readonly platform: string;
    readonly arch: string;
}

/** dist/resolve.js → the package directory. */
export function defaultLookupRoots(): LookupRoots {
    return {
        packageRoot: resolve(dirname(fileURLToPath(import.meta.url)), ".."),
        platform: process.platform,
        arch: process.arch,
    };
}

/** The executable for the current host. Throws on Windows and other unsupported hosts. */
export function resolveSupervisorBinary(binaryPath?: string): string {
    return resolveSupervisorBinaryFrom(defaultLookupRoots(), binaryPath);
}

/**
 * A Linux executable for `architecture` (amd64 | x64 | x86_64 | arm64 |
 * aarch64), whatever the host: e.g. to mount into a container.
 */
export function resolveLinuxSupervisorBinary(architecture: string, binaryPath?: string): string {
    return resolveLinuxSupervisorBinaryFrom(defaultLookupRoots(), architecture, binaryPath);
}

export function resolveSupervisorBinaryFrom(roots: LookupRoots, binaryPath?: string): string {
    const target = hostTargetFor(roots.platform, roots.arch);
    return resolveTarget(roots, target, binaryPath);
}

export function resolveLinuxSupervisorBinaryFrom(
    roots: LookupRoots,
    architecture: string,
    binaryPath?: string,
): string {
    return resolveTarget(roots, linuxTargetFor(architecture), binaryPath);
}

function resolveTarget(roots: LookupRoots, target: SupervisorTarget, binaryPath?: string): string {
    if (binaryPath !== undefined) return explicitBinary(binaryPath);
    const fromPackage = platformPackageBinary(roots, target);
    if (fromPackage !== undefined) return fromPackage;
    const fromCheckout = checkoutBinaries(roots, target).find(isExecutableFile);
    if (fromCheckout !== undefined) return fromCheckout;
    const version = packageVersion(roots.packageRoot);
    const alias = platformPackageAlias(target);
    throw new Error(
        `no happy-agent-supervisor binary for ${target.suffix}: the optional dependency ${alias} ` +
            `is not installed. Reinstall ${PACKAGE_NAME} with optional dependencies enabled ` +
            `(not --omit=optional / --no-optional), or install the binary explicitly: ` +
            `npm install ${alias}@npm:${PACKAGE_NAME}@${version}-${target.suffix}` +
            (target.os === "linux" && target.cpu !== roots.arch ? " --force" : ""),
    );
}

function isExecutableFile(path: string): boolean {
    try {
        if (!statSync(path).isFile()) return false;
        accessSync(path, constants.X_OK);
        return true;
    } catch {
        return false;
    }
}

function explicitBinary(binaryPath: string): string {
    const path = resolve(binaryPath);
    if (binaryPath === "" || !isExecutableFile(path))
        throw new Error(`happy-agent-supervisor: binaryPath ${JSON.stringify(binaryPath)} is not an executable file`);
    return path;
}

function vendorBinary(root: string, target: SupervisorTarget): string {
    return join(root, "vendor", target.triple, "bin", BINARY_NAME);
}

/** The binary of the installed platform package, if that package is installed. */
function platformPackageBinary(roots: LookupRoots, target: SupervisorTarget): string | undefined {
    const alias = platformPackageAlias(target);
    let manifestPath: string;
    try {
        manifestPath = createRequire(join(roots.packageRoot, "package.json")).resolve(`${alias}/package.json`);
    } catch {
        return undefined; // not installed: fall through to the checkout, then the error
    }
    const root = dirname(manifestPath);
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { name?: unknown; version?: unknown };
    // The alias must hold this package's build for this very target, not
    // something else that happens to sit under that directory name.
    if (manifest.name !== PACKAGE_NAME || typeof manifest.version !== "string" || !manifest.version.endsWith(`-${target.suffix}`))
        throw new Error(
            `happy-agent-supervisor: ${root} is not the ${target.suffix} build of ${PACKAGE_NAME} ` +
                `(found ${String(manifest.name)}@${String(manifest.version)}); reinstall ${PACKAGE_NAME}`,
        );
    const binary = vendorBinary(root, target);
    if (!isExecutableFile(binary))
        throw new Error(`happy-agent-supervisor: ${alias} is installed but ${binary} is missing or not executable; reinstall ${PACKAGE_NAME}`);
    return binary;
}

/**
 * When this API runs from a checkout (release/npm/ of the repository), the
 * binaries that checkout built: a static release build copied to
 * release/dist/vendor/<triple>/ (release/build-static --output), then, for the
 * host's own target, an in-tree `./configure && make` or a build in _build/.
 */
function checkoutBinaries(roots: LookupRoots, target: SupervisorTarget): string[] {
    const checkout = resolve(roots.packageRoot, "..", "..");
    let configure: string;
    try {
        configure = readFileSync(join(checkout, "configure.ac"), "utf8");
    } catch {
        return [];
    }
    if (!configure.includes("AC_INIT([happy-agent-supervisor]")) return [];
    const candidates = [vendorBinary(join(checkout, "release", "dist"), target)];
    if (target.os === roots.platform && target.cpu === roots.arch)
        candidates.push(join(checkout, BINARY_NAME), join(checkout, "_build", BINARY_NAME));
    return candidates;
}

function packageVersion(packageRoot: string): string {
    try {
        const manifest = JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8")) as { version?: unknown };
        if (typeof manifest.version === "string") return manifest.version;
    } catch {
        // fall through: the message still names the package
    }
    return "<version>";
}
