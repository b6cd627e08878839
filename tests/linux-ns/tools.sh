#!/bin/bash
# tools.sh — ordinary developer tools work inside a workspace_write,
# egress-off sandbox.
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/linux-ns/lib-ns.sh"
sandbox_require

ws=$(make_workspace)
cd "$ws" || exit 1
P=$(policy workspace_write false false)

run_sup "$P" -- sh -c 'seq 1 1000 | sort -rn | head -3 | tr "\n" " "; echo'
expect_out '^1000 999 998 $' "shell pipeline"

if have_tool git git; then
    run_sup "$P" -- sh -c 'git init -q . && echo a > a && git add a && git -c user.name=t -c user.email=t@e commit -qm first && git log --oneline | wc -l'
    expect_out '^1$' "git init/add/commit/log"
fi
if have_tool gcc gcc && have_tool make make; then
    printf '#include <stdio.h>\nint main(void){puts("built");return 0;}\n' >hello.c
    printf 'hello: hello.c\n\tgcc -O1 -o hello hello.c\n' >Makefile
    run_sup "$P" -- sh -c 'make -s && ./hello'
    expect_out '^built$' "make + gcc (temporary files in the private /tmp) + run"
fi
run_sup "$P" -- "$PY" -c 'import subprocess, tempfile, os; f = tempfile.NamedTemporaryFile(); print(subprocess.run(["echo", "py"], capture_output=True, text=True).stdout.strip())'
expect_out '^py$' "python3 subprocess and tempfile"
if have_tool node nodejs; then
    run_sup "$P" -- node -e 'require("fs").writeFileSync("n.txt", "node"); require("fs").readFile("n.txt", "utf8", (e, d) => console.log(e ? e.message : d))'
    expect_out '^node$' "node (async fs with io_uring refused)"
fi
if have_tool strace strace; then
    run_sup "$P" -- strace -f -qq -o /dev/null sh -c 'true'
    expect_rc 0 "strace of the workload's own children"
fi
if have_tool gdb gdb; then
    run_sup "$P" -- gdb -q -batch -ex run --args /bin/true
    expect_out 'exited normally' "gdb on the workload's own child"
    if have_tool gcc gcc; then
        # A breakpoint is a write into the child's text: through ptrace or
        # /proc/PID/mem, which the read-only procfs closes.
        printf 'int twice(int x) { return 2 * x; }\nint main(void) { return twice(21) - 42; }\n' >bp.c
        run_sup "$P" -- sh -c 'gcc -g -O0 -o bp bp.c && gdb -q -batch -ex "break twice" -ex run -ex "print x" -ex continue ./bp'
        expect_out '^\$1 = 21$' "gdb stops at a breakpoint in the workload's own child"
    fi
fi
finish
