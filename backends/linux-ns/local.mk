# backends/linux-ns: rules for this part of the tree (owned by its backend).
# The sources build a convenience library (own CFLAGS, linked into the
# release binary) and, for developer builds, a dlopen()ed module.
if HOST_LINUX
LINUX_NS_SOURCES = \
	backends/linux-ns/linux_ns.h backends/linux-ns/backend.c \
	backends/linux-ns/userns.c backends/linux-ns/userns_limits.c \
	backends/linux-ns/mount_ops.h backends/linux-ns/mount_ops.c \
	backends/linux-ns/safe_path.c backends/linux-ns/mount_policy.c \
	backends/linux-ns/denial_anchor.c \
	backends/linux-ns/host_ipc.h backends/linux-ns/host_ipc.c backends/linux-ns/dev.c \
	backends/linux-ns/netns.c backends/linux-ns/scratch_tmp.c backends/linux-ns/explain.c \
	backends/linux-ns/kernel_diag.c backends/linux-ns/kernel_fs.c \
	backends/linux-ns/mount_shape.h backends/linux-ns/mount_shape.c
# -I backends: os/mount_api.h (the new mount API, shared with egress-proxy).
LINUX_NS_CPPFLAGS = $(AM_CPPFLAGS) $(LINUX_COMMON_CPPFLAGS) -I$(top_srcdir)/backends
LINUX_NS_CFLAGS = $(AM_CFLAGS) $(LINUX_COMMON_CFLAGS)

noinst_LIBRARIES += backends/linux-ns/liblinuxns.a
backends_linux_ns_liblinuxns_a_SOURCES = $(LINUX_NS_SOURCES)
backends_linux_ns_liblinuxns_a_CPPFLAGS = $(LINUX_NS_CPPFLAGS)
backends_linux_ns_liblinuxns_a_CFLAGS = $(LINUX_NS_CFLAGS)

EXTRA_DIST += backends/linux-ns/README.md

if DYNAMIC_BACKENDS
backendmod_LTLIBRARIES += backends/linux-ns.la
backends_linux_ns_la_SOURCES = $(LINUX_NS_SOURCES) $(LINUX_COMMON_SOURCES)
nodist_backends_linux_ns_la_SOURCES = $(LINUX_COMMON_GENERATED)
backends_linux_ns_la_CPPFLAGS = $(LINUX_NS_CPPFLAGS) -DHAS_BACKEND_MODULE
backends_linux_ns_la_CFLAGS = $(LINUX_NS_CFLAGS)
backends_linux_ns_la_LDFLAGS = -module -avoid-version -shared
backends_linux_ns_la_LIBADD = $(LINUX_COMMON_LIBS)
else
# Before linux-common's archive (linked by its own local.mk): archives
# resolve left to right.
happy_agent_supervisor_LDADD += backends/linux-ns/liblinuxns.a
HAS_BACKENDS += linux_ns_backend
endif
endif
