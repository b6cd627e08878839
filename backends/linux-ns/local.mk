# backends/linux-ns: rules for this part of the tree (owned by its backend).
# The sources build a convenience library (own CFLAGS, linked into the
# release binary) and, for developer builds, a dlopen()ed module.
if HOST_LINUX
LINUX_NS_SOURCES = \
	backends/linux-ns/linux_ns.h backends/linux-ns/backend.c \
	backends/linux-ns/userns.c backends/linux-ns/ns_init.c \
	backends/linux-ns/mount_ops.h backends/linux-ns/mount_ops.c \
	backends/linux-ns/safe_path.c backends/linux-ns/mount_policy.c \
	backends/linux-ns/denial_anchor.c \
	backends/linux-ns/host_ipc.h backends/linux-ns/host_ipc.c backends/linux-ns/dev.c \
	backends/linux-ns/netns.c backends/linux-ns/caps.c \
	backends/linux-ns/seccomp_programs.h backends/linux-ns/seccomp_filter.c \
	backends/linux-ns/fd_hygiene.c backends/linux-ns/kernel_diag.c \
	backends/linux-ns/kernel_fs.c backends/linux-ns/fd_pass.c backends/linux-ns/connect_broker.c
# Written at build time by the seccomp tool below.
LINUX_NS_GENERATED = backends/linux-ns/seccomp_programs.c
# The generated source lives in the build tree; its header in the source tree.
LINUX_NS_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/backends/linux-ns
LINUX_NS_CFLAGS = $(AM_CFLAGS) $(CAPNG_CFLAGS)
LINUX_NS_LIBS = $(CAPNG_LIBS)

noinst_LIBRARIES += backends/linux-ns/liblinuxns.a
backends_linux_ns_liblinuxns_a_SOURCES = $(LINUX_NS_SOURCES)
nodist_backends_linux_ns_liblinuxns_a_SOURCES = $(LINUX_NS_GENERATED)
backends_linux_ns_liblinuxns_a_CPPFLAGS = $(LINUX_NS_CPPFLAGS)
backends_linux_ns_liblinuxns_a_CFLAGS = $(LINUX_NS_CFLAGS)

# The syscall table and its compilation by libseccomp: used by the
# build-time generator, the developer tool and the test that compares the
# programs in the binary with libseccomp's output.
SECCOMP_RULES_SOURCES = backends/linux-ns/seccomp_rules.h backends/linux-ns/seccomp_rules.c

# The generator of seccomp_programs.c.  Natively it is built like any tool;
# in a cross build it must run on the build machine, so it is compiled with
# CC_FOR_BUILD against that machine's libseccomp (configure.ac).
SECCOMP_GEN_SOURCES = $(SECCOMP_RULES_SOURCES) backends/linux-ns/seccomp_gen.c
if SECCOMP_GEN_FOR_BUILD
SECCOMP_GEN = backends/linux-ns/seccomp-gen-for-build
$(SECCOMP_GEN): $(SECCOMP_GEN_SOURCES:%=$(srcdir)/%) config.h
	$(AM_V_CCLD)$(CC_FOR_BUILD) -I$(top_builddir) $(SECCOMP_FOR_BUILD_CFLAGS) -o $@ \
		$(srcdir)/backends/linux-ns/seccomp_rules.c $(srcdir)/backends/linux-ns/seccomp_gen.c \
		$(SECCOMP_FOR_BUILD_LIBS)
CLEANFILES += $(SECCOMP_GEN)
else
noinst_PROGRAMS += backends/linux-ns/happy-agent-supervisor-seccomp-gen
backends_linux_ns_happy_agent_supervisor_seccomp_gen_SOURCES = $(SECCOMP_GEN_SOURCES)
backends_linux_ns_happy_agent_supervisor_seccomp_gen_CFLAGS = $(AM_CFLAGS) $(SECCOMP_CFLAGS)
backends_linux_ns_happy_agent_supervisor_seccomp_gen_LDADD = $(SECCOMP_LIBS)
SECCOMP_GEN = backends/linux-ns/happy-agent-supervisor-seccomp-gen$(EXEEXT)
endif
# Written to a temporary name first: a failed run leaves no half file for
# the next make to take as up to date.
backends/linux-ns/seccomp_programs.c: $(SECCOMP_GEN)
	$(AM_V_GEN)./$(SECCOMP_GEN) $(SECCOMP_TARGET_ARCH) >$@.tmp && mv $@.tmp $@
BUILT_SOURCES += $(LINUX_NS_GENERATED)
CLEANFILES += $(LINUX_NS_GENERATED) $(LINUX_NS_GENERATED:=.tmp)

# Developer tool: print the seccomp filter for a policy (PFC, or --bpf).
noinst_PROGRAMS += backends/linux-ns/happy-agent-supervisor-seccomp-dump
backends_linux_ns_happy_agent_supervisor_seccomp_dump_SOURCES = backends/linux-ns/seccomp_dump.c $(SECCOMP_RULES_SOURCES)
backends_linux_ns_happy_agent_supervisor_seccomp_dump_CFLAGS = $(AM_CFLAGS) $(SECCOMP_CFLAGS)
backends_linux_ns_happy_agent_supervisor_seccomp_dump_LDADD = core/libpolicy.a $(CJSON_LIBS) $(SECCOMP_LIBS)

EXTRA_DIST += backends/linux-ns/README.md

if DYNAMIC_BACKENDS
backendmod_LTLIBRARIES += backends/linux-ns.la
backends_linux_ns_la_SOURCES = $(LINUX_NS_SOURCES)
nodist_backends_linux_ns_la_SOURCES = $(LINUX_NS_GENERATED)
backends_linux_ns_la_CPPFLAGS = $(LINUX_NS_CPPFLAGS) -DHAS_BACKEND_MODULE
backends_linux_ns_la_CFLAGS = $(LINUX_NS_CFLAGS)
backends_linux_ns_la_LDFLAGS = -module -avoid-version -shared
backends_linux_ns_la_LIBADD = $(LINUX_NS_LIBS)
else
happy_agent_supervisor_LDADD += backends/linux-ns/liblinuxns.a $(LINUX_NS_LIBS)
STATIC_BACKEND_DEFS += -DHAVE_BACKEND_LINUX_NS
endif
endif
