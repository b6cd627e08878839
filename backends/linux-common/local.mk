# backends/linux-common: the mechanisms both Linux backends share (see
# linux_common.h).  Not a backend: a convenience library linked once into
# the release binary, and compiled into each Linux backend's module in
# developer builds (a module is self-contained).
if HOST_LINUX
LINUX_COMMON_SOURCES = \
	backends/linux-common/linux_common.h backends/os/mount_api.h \
	backends/linux-common/caps.c backends/linux-common/fd_hygiene.c backends/linux-common/fd_pass.c \
	backends/linux-common/fd_path.c \
	backends/linux-common/seccomp/seccomp_programs.h backends/linux-common/seccomp/seccomp_filter.c \
	backends/linux-common/brokers/connect_broker.c backends/linux-common/process/broker_init.c \
	backends/linux-common/process/supervised_fork.h backends/linux-common/process/supervised_fork.c \
	backends/linux-common/brokers/broker_peek.h backends/linux-common/brokers/broker_peek.c \
	backends/linux-common/brokers/socket_grant.h backends/linux-common/brokers/socket_grant.c \
	backends/linux-common/brokers/meta_broker.h backends/linux-common/brokers/meta_broker.c \
	backends/linux-common/brokers/entry_broker.h backends/linux-common/brokers/entry_broker.c \
	backends/linux-common/landlock_sys.h backends/linux-common/landlock_sys.c \
	backends/linux-common/keyring.c backends/linux-common/mount/mountinfo.c \
	backends/linux-common/mount/mount_id.h backends/linux-common/mount/mount_id.c \
	backends/linux-common/paths.c backends/linux-common/kernel_release.c \
	backends/linux-common/limits/cgroup.h backends/linux-common/limits/cgroup.c \
	backends/linux-common/limits/sandbox_limits.h backends/linux-common/limits/sandbox_limits.c \
	backends/linux-common/devices/device_filter.h backends/linux-common/devices/device_filter.c \
	backends/linux-common/devices/device_grant.h backends/linux-common/devices/device_grant.c \
	backends/linux-common/devices/device_explain.c \
	backends/linux-common/limits/shared_rlimits.h backends/linux-common/limits/shared_rlimits.c
# The core's policy path algebra, compiled in here: a module is
# self-contained, and the release binary's archives resolve left to right.
LINUX_COMMON_SOURCES += core/policy_paths.h core/policy_paths.c
# Written at build time by the seccomp tool below, into the build tree's
# seccomp/; its header is in the source tree's.
LINUX_COMMON_GENERATED = backends/linux-common/seccomp/seccomp_programs.c
# The folder's one include path, in the source tree: its files (the
# generated one too), the backends and the tests name its headers from
# here, by room ("seccomp/seccomp_programs.h").
LINUX_COMMON_CPPFLAGS = -I$(top_srcdir)/backends/linux-common
LINUX_COMMON_CFLAGS = $(CAPNG_CFLAGS)
LINUX_COMMON_LIBS = $(CAPNG_LIBS)

noinst_LIBRARIES += backends/linux-common/liblinuxcommon.a
backends_linux_common_liblinuxcommon_a_SOURCES = $(LINUX_COMMON_SOURCES)
nodist_backends_linux_common_liblinuxcommon_a_SOURCES = $(LINUX_COMMON_GENERATED)
backends_linux_common_liblinuxcommon_a_CPPFLAGS = $(AM_CPPFLAGS) $(LINUX_COMMON_CPPFLAGS)
backends_linux_common_liblinuxcommon_a_CFLAGS = $(AM_CFLAGS) $(LINUX_COMMON_CFLAGS)

# The syscall table and its compilation by libseccomp: used by the
# build-time generator, the developer tool and the test that compares the
# programs in the binary with libseccomp's output.
SECCOMP_RULES_SOURCES = backends/linux-common/seccomp/seccomp_rules.h backends/linux-common/seccomp/seccomp_rules.c

# The generator of seccomp/seccomp_programs.c.  Natively it is built like
# any tool; in a cross build it must run on the build machine, so it is
# compiled with CC_FOR_BUILD against that machine's libseccomp
# (configure.ac).
SECCOMP_GEN_SOURCES = $(SECCOMP_RULES_SOURCES) backends/linux-common/seccomp/seccomp_gen.c
if SECCOMP_GEN_FOR_BUILD
SECCOMP_GEN = backends/linux-common/seccomp-gen-for-build
$(SECCOMP_GEN): $(SECCOMP_GEN_SOURCES:%=$(srcdir)/%) config.h
	$(AM_V_CCLD)$(CC_FOR_BUILD) -I$(top_builddir) -I$(srcdir)/backends/linux-common $(SECCOMP_FOR_BUILD_CFLAGS) -o $@ \
		$(srcdir)/backends/linux-common/seccomp/seccomp_rules.c $(srcdir)/backends/linux-common/seccomp/seccomp_gen.c \
		$(SECCOMP_FOR_BUILD_LIBS)
CLEANFILES += $(SECCOMP_GEN)
else
noinst_PROGRAMS += backends/linux-common/happy-agent-supervisor-seccomp-gen
backends_linux_common_happy_agent_supervisor_seccomp_gen_SOURCES = $(SECCOMP_GEN_SOURCES)
backends_linux_common_happy_agent_supervisor_seccomp_gen_CPPFLAGS = $(AM_CPPFLAGS) $(LINUX_COMMON_CPPFLAGS)
backends_linux_common_happy_agent_supervisor_seccomp_gen_CFLAGS = $(AM_CFLAGS) $(SECCOMP_CFLAGS)
backends_linux_common_happy_agent_supervisor_seccomp_gen_LDADD = $(SECCOMP_LIBS)
SECCOMP_GEN = backends/linux-common/happy-agent-supervisor-seccomp-gen$(EXEEXT)
endif
# Written to a temporary name first: a failed run leaves no half file for
# the next make to take as up to date.  Its directory is made here: the
# cross build's generator has no object in seccomp/ to make it first.
backends/linux-common/seccomp/seccomp_programs.c: $(SECCOMP_GEN)
	$(AM_V_at)$(MKDIR_P) backends/linux-common/seccomp
	$(AM_V_GEN)./$(SECCOMP_GEN) $(SECCOMP_TARGET_ARCH) >$@.tmp && mv $@.tmp $@
BUILT_SOURCES += $(LINUX_COMMON_GENERATED)
CLEANFILES += $(LINUX_COMMON_GENERATED) $(LINUX_COMMON_GENERATED:=.tmp)

# Developer tool: print the seccomp filter for a policy (PFC, or --bpf).
noinst_PROGRAMS += backends/linux-common/happy-agent-supervisor-seccomp-dump
backends_linux_common_happy_agent_supervisor_seccomp_dump_SOURCES = backends/linux-common/seccomp/seccomp_dump.c $(SECCOMP_RULES_SOURCES)
backends_linux_common_happy_agent_supervisor_seccomp_dump_CPPFLAGS = $(AM_CPPFLAGS) $(LINUX_COMMON_CPPFLAGS)
backends_linux_common_happy_agent_supervisor_seccomp_dump_CFLAGS = $(AM_CFLAGS) $(SECCOMP_CFLAGS)
backends_linux_common_happy_agent_supervisor_seccomp_dump_LDADD = core/libcore.a $(CJSON_LIBS) $(SECCOMP_LIBS)

EXTRA_DIST += backends/linux-common/README.md

if !DYNAMIC_BACKENDS
happy_agent_supervisor_LDADD += backends/linux-common/liblinuxcommon.a $(LINUX_COMMON_LIBS)
endif
endif
