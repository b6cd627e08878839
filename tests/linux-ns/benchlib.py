"""benchlib -- the measurement the launch benchmarks share (bench-launch,
bench-load, bench-ab).  Not a test.

This machine's speed drifts by up to 2 x within minutes, so a block of one
command's launches followed by a block of the next (hyperfine's way)
compares different machines.  Here every command runs once per round, in
an order shuffled anew each round, and each launch is measured alone:

  wall   time.perf_counter() around the launch, as its caller waits for it
  CPU    user + system time of the whole reaped tree (the RUSAGE_CHILDREN
         delta around the launch: every descendant waited for, threads
         included), so a launcher that moves work into helpers pays for it

The parallel figure runs WIDTH launches at once for a block of launches per
command and alternates the commands by round (a shuffled order again).
"""
import concurrent.futures
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import time

POLICY = '{"mode":"workspace_write","network":{"egress":false,"localBinding":false}}'
TAIL = ["/bin/true"]


def floor_command():
    """`unshare` with the supervisor's namespace set: user, mount, PID,
    network, IPC, UTS and cgroup."""
    return ["unshare", "-Urmpniu", "--cgroup", "--fork"]


def bwrap_command(ws):
    """bubblewrap with the same namespaces and an equivalent view."""
    return ["bwrap", "--ro-bind", "/", "/", "--bind", ws, ws, "--proc", "/proc", "--dev", "/dev",
            "--unshare-user", "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
            "--unshare-cgroup", "--die-with-parent"]


def supervisor_command(binary, policy=POLICY):
    """A supervisor build (ours, or the original implementation: same command line)."""
    return [binary, "--policy", policy, "--"]


def need(*tools):
    for tool in tools:
        if not shutil.which(tool):
            sys.exit(f"{os.path.basename(sys.argv[0])}: {tool} is not installed")


def reexec_as(user):
    """Run this benchmark again as `user` (one runuser for the whole run, not
    one per launch: runuser's PAM session would swamp a launch).  Returns in
    the child only; the parent exits with its status."""
    if os.environ.get("HAS_BENCH_AS") == user:
        return
    need("runuser")
    args = [a for i, a in enumerate(sys.argv) if a != "--as" and (i == 0 or sys.argv[i - 1] != "--as")]
    env = ["env", f"HAS_BENCH_AS={user}", f"PATH={os.environ.get('PATH', '/usr/bin:/bin')}"]
    for k in ("HAS_BENCH_POLICY", "HAS_BENCH_POLICY_AFTER", "HAS_BENCH_DIR"):
        if k in os.environ:
            env.append(f"{k}={os.environ[k]}")
    sys.exit(subprocess.run(["runuser", "-u", user, "--"] + env + [sys.executable] + args).returncode)


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def launch(argv, cwd):
    """One launch: (CPU of the reaped tree, wall time), seconds."""
    cpu, wall = children_cpu(), time.perf_counter()
    subprocess.run(argv, cwd=cwd, check=True, stdin=subprocess.DEVNULL,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return children_cpu() - cpu, time.perf_counter() - wall


def warm_up(cmds, cwd, n=10, tail=TAIL):
    for argv in cmds.values():
        for _ in range(n):
            launch(argv + tail, cwd)


def interleaved(cmds, rounds, cwd, tail=TAIL):
    """{name: (cpu list, wall list)}: `rounds` rounds, each launching every
    command once in a shuffled order."""
    out = {name: ([], []) for name in cmds}
    names = list(cmds)
    for _ in range(rounds):
        random.shuffle(names)
        for name in names:
            cpu, wall = launch(cmds[name] + tail, cwd)
            out[name][0].append(cpu)
            out[name][1].append(wall)
    return out


def parallel(cmds, rounds, per_round, width, cwd, tail=TAIL):
    """{name: [launches/s per round]}: in each round every command (shuffled
    order) makes `per_round` launches, `width` at once."""
    out = {name: [] for name in cmds}
    names = list(cmds)
    with concurrent.futures.ThreadPoolExecutor(width) as pool:
        for _ in range(rounds):
            random.shuffle(names)
            for name in names:
                t = time.perf_counter()
                list(pool.map(lambda _: launch(cmds[name] + tail, cwd), range(per_round)))
                out[name].append(per_round / (time.perf_counter() - t))
    return out


def blocks(values, n=5):
    """`values` cut into n consecutive blocks (the drift of the run)."""
    k = max(1, len(values) // n)
    return [values[i:i + k] for i in range(0, k * n, k) if values[i:i + k]]


def spread(values, n=5, stat=statistics.median):
    """(low, high) of `stat` over n consecutive blocks: how far the figure
    moved within this run."""
    s = [stat(b) for b in blocks(values, n)]
    return min(s), max(s)


def summary(cpu, wall):
    """Median wall, mean CPU and their block spreads, in ms."""
    ms = lambda x: x * 1e3
    wl, wh = spread(wall)
    cl, ch = spread(cpu, stat=statistics.mean)
    return {"wall": ms(statistics.median(wall)), "wall_spread": (ms(wl), ms(wh)),
            "cpu": ms(statistics.mean(cpu)), "cpu_spread": (ms(cl), ms(ch))}


def ratio_spread(a, b, n=5, stat=statistics.median):
    """(low, high) of a/b over n consecutive blocks of two interleaved series."""
    r = [stat(x) / stat(y) for x, y in zip(blocks(a, n), blocks(b, n))]
    return min(r), max(r)


def machine_line(extra=""):
    load = os.getloadavg()
    return (f"{os.cpu_count()} CPUs, kernel {os.uname().release}, uid {os.getuid()}, "
            f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}{extra}")
