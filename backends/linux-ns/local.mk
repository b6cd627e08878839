# backends/linux-ns: rules for this part of the tree (owned by its backend).
# The sources build a convenience library (own CFLAGS, linked into the
# release binary) and, for developer builds, a dlopen()ed module.
if HOST_LINUX
LINUX_NS_SOURCES = \
	backends/linux-ns/linux_ns.h backends/linux-ns/backend.c \
	backends/linux-ns/userns.c backends/linux-ns/ns_init.c \
	backends/linux-ns/mount_ops.h backends/linux-ns/mount_ops.c \
	backends/linux-ns/safe_path.c backends/linux-ns/mount_policy.c \
	backends/linux-ns/host_ipc.h backends/linux-ns/host_ipc.c backends/linux-ns/dev.c \
	backends/linux-ns/netns.c backends/linux-ns/caps.c \
	backends/linux-ns/seccomp_filter.h backends/linux-ns/seccomp_filter.c \
	backends/linux-ns/fd_hygiene.c backends/linux-ns/kernel_diag.c
LINUX_NS_CFLAGS = $(AM_CFLAGS) $(SECCOMP_CFLAGS) $(CAPNG_CFLAGS)
LINUX_NS_LIBS = $(SECCOMP_LIBS) $(CAPNG_LIBS)

noinst_LIBRARIES += backends/linux-ns/liblinuxns.a
backends_linux_ns_liblinuxns_a_SOURCES = $(LINUX_NS_SOURCES)
backends_linux_ns_liblinuxns_a_CFLAGS = $(LINUX_NS_CFLAGS)

# Developer tool: print the seccomp filter for a policy (PFC, or --bpf).
noinst_PROGRAMS += backends/linux-ns/happy-agent-supervisor-seccomp-dump
backends_linux_ns_happy_agent_supervisor_seccomp_dump_SOURCES = backends/linux-ns/seccomp_dump.c
backends_linux_ns_happy_agent_supervisor_seccomp_dump_CFLAGS = $(LINUX_NS_CFLAGS)
backends_linux_ns_happy_agent_supervisor_seccomp_dump_LDADD = \
	backends/linux-ns/liblinuxns.a core/libpolicy.a $(CJSON_LIBS) $(LINUX_NS_LIBS)

EXTRA_DIST += backends/linux-ns/README.md

if DYNAMIC_BACKENDS
backendmod_LTLIBRARIES += backends/linux-ns.la
backends_linux_ns_la_SOURCES = $(LINUX_NS_SOURCES)
backends_linux_ns_la_CPPFLAGS = $(AM_CPPFLAGS) -DHAS_BACKEND_MODULE
backends_linux_ns_la_CFLAGS = $(LINUX_NS_CFLAGS)
backends_linux_ns_la_LDFLAGS = -module -avoid-version -shared
backends_linux_ns_la_LIBADD = $(LINUX_NS_LIBS)
else
happy_agent_supervisor_LDADD += backends/linux-ns/liblinuxns.a $(LINUX_NS_LIBS)
STATIC_BACKEND_DEFS += -DHAVE_BACKEND_LINUX_NS
endif
endif
