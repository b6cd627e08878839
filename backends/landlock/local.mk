# backends/landlock: the Linux backend without namespaces (README.md here).
# Built wherever linux-ns is; selected only with --sandbox landlock.
if HOST_LINUX
LANDLOCK_SOURCES = \
	backends/landlock/landlock.h backends/landlock/backend.c \
	backends/landlock/fs_lists.c backends/landlock/fs_ruleset.c backends/landlock/fs_anchors.c \
	backends/landlock/fs_dir_pool.c backends/landlock/socket_rules.c backends/landlock/explain.c \
	backends/landlock/device_fence.c
LANDLOCK_CPPFLAGS = $(AM_CPPFLAGS) $(LINUX_COMMON_CPPFLAGS)
LANDLOCK_CFLAGS = $(AM_CFLAGS) $(LINUX_COMMON_CFLAGS)

EXTRA_DIST += backends/landlock/README.md

if DYNAMIC_BACKENDS
backendmod_LTLIBRARIES += backends/landlock.la
backends_landlock_la_SOURCES = $(LANDLOCK_SOURCES) $(LINUX_COMMON_SOURCES)
nodist_backends_landlock_la_SOURCES = $(LINUX_COMMON_GENERATED)
backends_landlock_la_CPPFLAGS = $(LANDLOCK_CPPFLAGS) -DHAS_BACKEND_MODULE
backends_landlock_la_CFLAGS = $(LANDLOCK_CFLAGS)
backends_landlock_la_LDFLAGS = -module -avoid-version -shared
backends_landlock_la_LIBADD = $(LINUX_COMMON_LIBS)
else
noinst_LIBRARIES += backends/landlock/liblandlock.a
backends_landlock_liblandlock_a_SOURCES = $(LANDLOCK_SOURCES)
backends_landlock_liblandlock_a_CPPFLAGS = $(LANDLOCK_CPPFLAGS)
backends_landlock_liblandlock_a_CFLAGS = $(LANDLOCK_CFLAGS)
# Before linux-common's archive (link order, see Makefile.am).
happy_agent_supervisor_LDADD += backends/landlock/liblandlock.a
HAS_BACKENDS += landlock_backend
endif
endif
