// release/lib/fake-registry.mjs — a local, read-only npm registry for the
// install test, so `npm install @slopus/happy-agent-supervisor` can run the
// real resolution (optional dependencies, os/cpu guards, aliases) offline.
//
//   node fake-registry.mjs TARBALL_DIR [STUB_MANIFEST...]
//
// Serves every *.tgz in TARBALL_DIR as a version of the package named in its
// package.json, and each STUB_MANIFEST (a package.json file) as a version
// whose tarball does not exist: the darwin platform packages, which cannot be
// built here. npm must never ask for those on Linux; if it does, it gets a 404
// and the install fails, which is the point. Prints the port, then serves
// until killed.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";

const [tarballDir, ...stubs] = process.argv.slice(2);
const packuments = new Map(); // name -> { versions, tarballs: Map<file, Buffer> }
const tarballs = new Map();

function entry(name) {
    if (!packuments.has(name)) packuments.set(name, { name, versions: {}, "dist-tags": {} });
    return packuments.get(name);
}

function addVersion(manifest, file, bytes) {
    const p = entry(manifest.name);
    p.versions[manifest.version] = {
        ...manifest,
        _id: `${manifest.name}@${manifest.version}`,
        dist: {
            tarball: `BASE/-/${file}`,
            integrity: `sha512-${createHash("sha512").update(bytes).digest("base64")}`,
            shasum: createHash("sha1").update(bytes).digest("hex"),
        },
    };
    // Release versions are "latest"; prereleases (the platform builds) are not.
    if (!manifest.version.includes("-")) p["dist-tags"].latest = manifest.version;
}

for (const file of readdirSync(tarballDir).filter((f) => f.endsWith(".tgz"))) {
    const bytes = readFileSync(join(tarballDir, file));
    const manifest = JSON.parse(execFileSync("tar", ["-xzOf", join(tarballDir, file), "package/package.json"]));
    tarballs.set(file, bytes);
    addVersion(manifest, file, bytes);
}
for (const stub of stubs) addVersion(JSON.parse(readFileSync(stub, "utf8")), `missing-${Date.now()}.tgz`, Buffer.alloc(0));

const server = createServer((req, res) => {
    const base = `http://${req.headers.host}`;
    const url = decodeURIComponent(new URL(req.url, base).pathname);
    process.stderr.write(`fake-registry: ${req.method} ${url}\n`);
    if (url.startsWith("/-/")) {
        const bytes = tarballs.get(url.slice(3));
        if (!bytes) return void res.writeHead(404).end();
        res.writeHead(200, { "content-type": "application/octet-stream" }).end(bytes);
        return;
    }
    const packument = packuments.get(url.slice(1));
    if (!packument) return void res.writeHead(404, { "content-type": "application/json" }).end('{"error":"not found"}');
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(packument).replaceAll("BASE/", `${base}/`));
});
server.listen(0, "127.0.0.1", () => process.stdout.write(`${server.address().port}\n`));
