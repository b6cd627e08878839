/*
 * device_filter.c — see device_filter.h.
 *
 * The program, for struct bpf_cgroup_dev_ctx {access_type, major, minor}:
 *
 *     r2 = access_type & 0xffff      (the node's type: block 1, char 2)
 *     r3 = major; r4 = minor
 *     per allowed device: if r2 == type && r3 == major && r4 == minor: return 1
 *     return 0
 *
 * Five instructions a device; no library in Debian assembles BPF for this
 * program type (libseccomp's is classic BPF for seccomp only).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "devices/device_filter.h"

/* 4 to load the context, 5 a device, 2 to refuse. */
#define PROGRAM_MAX (4 + 5 * DEVICE_FILTER_MAX + 2)

static struct bpf_insn load_word(int dst, short offset)
{
    return (struct bpf_insn){
        .code = BPF_LDX | BPF_MEM | BPF_W, .dst_reg = dst, .src_reg = BPF_REG_1, .off = offset};
}

static struct bpf_insn jump_unless(int reg, int value, short skip)
{
    return (struct bpf_insn){.code = BPF_JMP | BPF_JNE | BPF_K, .dst_reg = reg, .off = skip, .imm = value};
}

static struct bpf_insn set_result(int value)
{
    return (struct bpf_insn){.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = value};
}

static struct bpf_insn leave(void)
{
    return (struct bpf_insn){.code = BPF_JMP | BPF_EXIT};
}

static size_t build(struct bpf_insn *p, const struct device_number *allowed, size_t n)
{
    size_t at = 0;
    p[at++] = load_word(BPF_REG_2, offsetof(struct bpf_cgroup_dev_ctx, access_type));
    p[at++] = (struct bpf_insn){.code = BPF_ALU | BPF_AND | BPF_K, .dst_reg = BPF_REG_2, .imm = 0xffff};
    p[at++] = load_word(BPF_REG_3, offsetof(struct bpf_cgroup_dev_ctx, major));
    p[at++] = load_word(BPF_REG_4, offsetof(struct bpf_cgroup_dev_ctx, minor));
    for (size_t i = 0; i < n; i++) {
        int type = allowed[i].block ? BPF_DEVCG_DEV_BLOCK : BPF_DEVCG_DEV_CHAR;
        p[at++] = jump_unless(BPF_REG_2, type, 4);
        p[at++] = jump_unless(BPF_REG_3, (int)major(allowed[i].rdev), 3);
        p[at++] = jump_unless(BPF_REG_4, (int)minor(allowed[i].rdev), 2);
        p[at++] = set_result(1);
        p[at++] = leave();
    }
    p[at++] = set_result(0);
    p[at++] = leave();
    return at;
}

static int load(const struct bpf_insn *program, size_t count)
{
    union bpf_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.prog_type = BPF_PROG_TYPE_CGROUP_DEVICE;
    attr.insns = (unsigned long)program;
    attr.insn_cnt = (unsigned)count;
    attr.license = (unsigned long)"GPL";
    return (int)syscall(SYS_bpf, BPF_PROG_LOAD, &attr, sizeof attr);
}

/* The program for `allowed`, loaded: its descriptor, or -1 with errno and err. */
static int load_program(const struct device_number *allowed, size_t n, char *err, size_t errlen)
{
    if (n > DEVICE_FILTER_MAX) {
        snprintf(err, errlen, "device filter: %zu devices, more than the %d it holds", n, DEVICE_FILTER_MAX);
        errno = E2BIG;
        return -1;
    }
    struct bpf_insn program[PROGRAM_MAX];
    int prog = load(program, build(program, allowed, n));
    if (prog < 0) {
        int saved = errno;
        snprintf(err, errlen, "cannot load the cgroup device program (bpf BPF_PROG_LOAD): %s",
                 strerror(saved));
        errno = saved;
    }
    return prog;
}

int device_filter_loadable(const struct device_number *allowed, size_t n, char *err, size_t errlen)
{
    int prog = load_program(allowed, n, err, errlen);
    if (prog < 0)
        return -1;
    close(prog);
    return 0;
}

int device_filter_attach(int group_fd, const struct device_number *allowed, size_t n, char *err,
                         size_t errlen)
{
    int prog = load_program(allowed, n, err, errlen);
    if (prog < 0)
        return -1;
    union bpf_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.target_fd = (unsigned)group_fd;
    attr.attach_bpf_fd = (unsigned)prog;
    attr.attach_type = BPF_CGROUP_DEVICE;
    attr.attach_flags = BPF_F_ALLOW_MULTI; /* the ancestors' programs run too */
    int rc = (int)syscall(SYS_bpf, BPF_PROG_ATTACH, &attr, sizeof attr);
    int saved = errno;
    close(prog); /* attached, the group holds it; it goes with the group */
    if (rc != 0)
        snprintf(err, errlen, "cannot attach the cgroup device program (bpf BPF_PROG_ATTACH): %s",
                 strerror(saved));
    errno = saved;
    return rc;
}

/* open() of the probe node: what stopped it, if anything. */
static int probe_open(const char *node, char *err, size_t errlen)
{
    int fd = open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd >= 0) {
        close(fd);
        snprintf(err, errlen, "a node for loop0 (block 7:0) made in a temporary directory opened");
        return 0;
    }
    if (errno == EPERM) /* devcgroup_inode_permission's answer */
        return 1;
    if (errno == EACCES) { /* may_open_dev(): the directory's mount is nodev */
        snprintf(err, errlen, "the probe's directory is on a nodev mount, so it shows nothing");
        return -1;
    }
    snprintf(err, errlen, "a node for loop0 (block 7:0) passed the device controller (open: %s)",
             strerror(errno));
    return 0;
}

int device_filter_probe(const char *tmp_dir, char *err, size_t errlen)
{
    char dir[4096], node[4200];
    if (snprintf(dir, sizeof dir, "%s/.happy-agent-supervisor-devprobe.XXXXXX", tmp_dir) >= (int)sizeof dir ||
        !mkdtemp(dir)) {
        snprintf(err, errlen, "cannot make a directory in %s for the device probe: %s", tmp_dir,
                 strerror(errno));
        return -1;
    }
    snprintf(node, sizeof node, "%s/n", dir);
    int rc = -1;
    /* EPERM here is CAP_MKNOD's as well as the controller's: no answer. */
    if (mknod(node, S_IFBLK | 0600, makedev(7, 0)) != 0)
        snprintf(err, errlen, "cannot make the probe node in %s: %s", dir, strerror(errno));
    else
        rc = probe_open(node, err, errlen);
    unlink(node);
    rmdir(dir);
    return rc;
}
