#!/usr/bin/env python3
"""explain_gen.py SEED COUNT TREE: random policies over the scratch tree
TREE (made here), and operations to ask --explain about and then try for
real (tests/core/explain.sh).  One line per policy:
    POLICY-JSON <TAB> op:path <TAB> op:path ...
with op "read" (a file whose content is its own path) or "write" (a new
file name).  Deterministic for a seed, so a failure can be replayed."""
import json, os, random, sys

seed, count, tree = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rng = random.Random(seed)
dirs = ["", "a", "a/b", "a/b/c", "d", "d/e", "f"]
for d in dirs:
    os.makedirs(os.path.join(tree, d), exist_ok=True)
    with open(os.path.join(tree, d, "file"), "w") as f:
        f.write(os.path.join(tree, d, "file"))
os.chmod(tree, 0o777)
for d in dirs:
    os.chmod(os.path.join(tree, d), 0o777)
    os.chmod(os.path.join(tree, d, "file"), 0o666)

def some(k):
    return [os.path.join(tree, d).rstrip("/") for d in rng.sample(dirs, rng.randint(0, k))]

for n in range(count):
    policy = {
        "mode": rng.choice(["read_only", "workspace_write"]),
        "allowedWritePaths": some(3),
        "deniedWritePaths": some(2),
        "deniedReadPaths": some(2),
        "network": {"egress": False, "localBinding": False},
    }
    ops = ["read:" + os.path.join(tree, d, "file") for d in dirs]
    ops += ["write:" + os.path.join(tree, d, "new.%d" % n) for d in dirs]
    print(json.dumps(policy) + "\t" + "\t".join(ops))
