// release/lib/manifest.mjs — the published package.json files.
//
//   node manifest.mjs root DEV_MANIFEST            the root package (TS API)
//   node manifest.mjs platform VERSION SUFFIX      one platform package
//
// The root manifest is the development one (release/npm/package.json) minus
// what only development needs (scripts, devDependencies, "private"), plus the
// four platform packages as optional dependencies: npm aliases of versions of
// this same name, each guarded by its own os/cpu.
import { readFileSync } from "node:fs";

const NAME = "@slopus/happy-agent-supervisor";
const PLATFORMS = {
    "darwin-arm64": { os: "darwin", cpu: "arm64", triple: "aarch64-apple-darwin" },
    "darwin-x64": { os: "darwin", cpu: "x64", triple: "x86_64-apple-darwin" },
    "linux-arm64": { os: "linux", cpu: "arm64", triple: "aarch64-unknown-linux-musl" },
    "linux-x64": { os: "linux", cpu: "x64", triple: "x86_64-unknown-linux-musl" },
};

function rootManifest(devManifestPath) {
    const dev = JSON.parse(readFileSync(devManifestPath, "utf8"));
    const { private: _private, scripts: _scripts, devDependencies: _dev, ...published } = dev;
    published.description =
        "Trusted native sandbox boundary for Happy agent workloads: policy validation (TypeBox) and the path of the platform binary.";
    published.optionalDependencies = Object.fromEntries(
        Object.keys(PLATFORMS).map((suffix) => [`${NAME}-${suffix}`, `npm:${NAME}@${dev.version}-${suffix}`]),
    );
    published.publishConfig = { access: "public" };
    return published;
}

function platformManifest(version, suffix) {
    const p = PLATFORMS[suffix];
    if (!p) throw new Error(`unknown platform ${suffix}`);
    const binary = `vendor/${p.triple}/bin/happy-agent-supervisor`;
    return {
        name: NAME,
        version: `${version}-${suffix}`,
        description: `Trusted native sandbox boundary for Happy agent workloads. Native binary for ${suffix}.`,
        license: "MIT",
        engines: { node: ">=20" },
        os: [p.os],
        cpu: [p.cpu],
        bin: { "happy-agent-supervisor": binary },
        files: ["vendor", "SHA256SUMS", "LICENSE", "README.md"],
        // Not "latest": installing the bare name must keep giving the root package.
        publishConfig: { access: "public", tag: "platform" },
    };
}

const [kind, ...args] = process.argv.slice(2);
const manifest = kind === "root" ? rootManifest(args[0]) : platformManifest(args[0], args[1]);
process.stdout.write(`${JSON.stringify(manifest, null, 2)}\n`);
