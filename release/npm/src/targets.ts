/**
 * The platforms a supervisor binary is published for, and how an
 * architecture may be spelled by a caller (OCI, Node.js and Rust names).
 *
 * Target names are Rust-style triples, as in the 0.0.1 packages, so the
 * vendor/<target>/ layout stays what existing users already look for even
 * though the binary is now built with autotools and musl-gcc.
 */
export type SupervisorOs = "linux" | "darwin";
export type SupervisorCpu = "x64" | "arm64";

export interface SupervisorTarget {
    /** process.platform / package.json "os" value. */
    readonly os: SupervisorOs;
    /** process.arch / package.json "cpu" value. */
    readonly cpu: SupervisorCpu;
    /** The vendor/<triple>/ directory of the platform package. */
    readonly triple: string;
    /** "linux-x64": the platform package's version suffix. */
    readonly suffix: string;
}

export const SUPERVISOR_TARGETS: readonly SupervisorTarget[] = [
    { os: "darwin", cpu: "arm64", triple: "aarch64-apple-darwin", suffix: "darwin-arm64" },
    { os: "darwin", cpu: "x64", triple: "x86_64-apple-darwin", suffix: "darwin-x64" },
    { os: "linux", cpu: "arm64", triple: "aarch64-unknown-linux-musl", suffix: "linux-arm64" },
    { os: "linux", cpu: "x64", triple: "x86_64-unknown-linux-musl", suffix: "linux-x64" },
];

export const PACKAGE_NAME = "@slopus/happy-agent-supervisor";
export const BINARY_NAME = "happy-agent-supervisor";

/** The optional dependency (an npm alias) that carries this target's binary. */
export function platformPackageAlias(target: SupervisorTarget): string {
    return `${PACKAGE_NAME}-${target.suffix}`;
}

const ARCHITECTURE_SPELLINGS: Readonly<Record<string, SupervisorCpu>> = {
    amd64: "x64",
    x64: "x64",
    x86_64: "x64",
    arm64: "arm64",
    aarch64: "arm64",
};

export const ACCEPTED_ARCHITECTURES = Object.keys(ARCHITECTURE_SPELLINGS);

function findTarget(os: string, cpu: string): SupervisorTarget | undefined {
    return SUPERVISOR_TARGETS.find((t) => t.os === os && t.cpu === cpu);
}

/** The Linux target for an OCI, Node.js or Rust architecture name. */
export function linuxTargetFor(architecture: string): SupervisorTarget {
    const cpu = Object.hasOwn(ARCHITECTURE_SPELLINGS, architecture) ? ARCHITECTURE_SPELLINGS[architecture] : undefined;
    const target = cpu === undefined ? undefined : findTarget("linux", cpu);
    if (target === undefined)
        throw new Error(
            `happy-agent-supervisor: unsupported Linux architecture ${JSON.stringify(architecture)}; ` +
                `use one of ${ACCEPTED_ARCHITECTURES.join(", ")}`,
        );
    return target;
}

/** The target for a host, or throw: Windows and everything else are unsupported. */
export function hostTargetFor(platform: string, arch: string): SupervisorTarget {
    if (platform === "win32")
        throw new Error(
            "happy-agent-supervisor does not support Windows: there is no enforcement backend, " +
                "and returning a binary that cannot enforce a policy would be worse than failing",
        );
    const target = findTarget(platform, arch);
    if (target === undefined)
        throw new Error(
            `happy-agent-supervisor has no binary for ${platform}-${arch}; ` +
                `supported: ${SUPERVISOR_TARGETS.map((t) => t.suffix).join(", ")}`,
        );
    return target;
}
