# backends/egress-proxy: the filtered-egress backend (backends/egress-proxy/README.md).
#
# The decision logic (host matching, address classes, the HTTP and SOCKS5
# parsers, credentials) is portable, pure C in one convenience library that
# the unit tests link too.  The egress process is built on Linux and macOS.
if HAVE_BACKEND_EGRESS_PROXY
EGRESS_POLICY_SOURCES = \
	backends/egress-proxy/addr_class.h backends/egress-proxy/addr_class.c \
	backends/egress-proxy/host_match.h backends/egress-proxy/host_match.c \
	backends/egress-proxy/destination.h backends/egress-proxy/destination.c \
	backends/egress-proxy/http_parse.h backends/egress-proxy/http_parse.c \
	backends/egress-proxy/socks5_parse.h backends/egress-proxy/socks5_parse.c \
	backends/egress-proxy/dns_parse.h backends/egress-proxy/dns_parse.c \
	backends/egress-proxy/synth_table.h backends/egress-proxy/synth_table.c \
	backends/egress-proxy/proxy_auth.h backends/egress-proxy/proxy_auth.c \
	backends/egress-proxy/refusal_report.h backends/egress-proxy/refusal_report.c
# The hooks: shared (egress_backend.c, egress_env.c) plus the platform's
# variants (egress_platform.h) below, each announced by an EGRESS_VARIANT_*
# define.
EGRESS_BACKEND_SOURCES = backends/egress-proxy/egress_backend.c \
	backends/egress-proxy/egress_platform.h \
	backends/egress-proxy/egress_env.h backends/egress-proxy/egress_env.c \
	backends/egress-proxy/egress_explain.c
EGRESS_BACKEND_LIBS =
# The egress process: one event loop over a small platform seam (evpoll.h:
# how readiness is learnt; relay*.c: how bytes move; confine*.c: what the
# process gives up).  Everything else is shared by both platforms, the
# relay's pump included (relay.c over relay_splice.c or relay_copy.c).
EGRESS_PROCESS_SOURCES = \
	backends/egress-proxy/conn.h backends/egress-proxy/egress_compat.h \
	backends/egress-proxy/evpoll.h backends/egress-proxy/confine.h \
	backends/egress-proxy/egress_loop.h backends/egress-proxy/egress_loop.c \
	backends/egress-proxy/egress_process.h backends/egress-proxy/egress_process.c \
	backends/egress-proxy/egress_spawn.h backends/egress-proxy/egress_spawn.c \
	backends/egress-proxy/http_frontend.c \
	backends/egress-proxy/socks5_frontend.c \
	backends/egress-proxy/transparent_frontend.c backends/egress-proxy/dns_frontend.c \
	backends/egress-proxy/upstream.c backends/egress-proxy/relay.c \
	backends/egress-proxy/resolver.h backends/egress-proxy/resolver.c
# Linux: epoll, splice(2), seccomp + libcap-ng; listeners from the sandbox's
# netns (linux-ns) or bound on the host's loopback (landlock).
EGRESS_LINUX_SOURCES = \
	backends/egress-proxy/egress_netns.c backends/egress-proxy/egress_loopback.c \
	backends/egress-proxy/name_views.h backends/egress-proxy/name_views.c \
	backends/egress-proxy/frontend_bind.h backends/egress-proxy/frontend_bind.c \
	backends/egress-proxy/evpoll_epoll.c backends/egress-proxy/relay_splice.c \
	backends/egress-proxy/confine.c backends/egress-proxy/resolver_ares.c
# macOS: poll(2), recv/send copy, no seccomp; listeners on host loopback.
# Also compiled on Linux, with -DEGRESS_PORTABLE, for test programs only
# (tests/egress-proxy/local.mk), so this path runs in `make check` here.
EGRESS_PORTABLE_SOURCES = \
	backends/egress-proxy/egress_loopback.c \
	backends/egress-proxy/evpoll_poll.c backends/egress-proxy/relay_copy.c \
	backends/egress-proxy/confine_portable.c backends/egress-proxy/resolver_libc.c \
	backends/egress-proxy/egress_sbpl.h backends/egress-proxy/egress_sbpl.c \
	backends/egress-proxy/frontend_bind.h backends/egress-proxy/frontend_bind.c
if HOST_LINUX
EGRESS_BACKEND_SOURCES += $(EGRESS_PROCESS_SOURCES) $(EGRESS_LINUX_SOURCES)
EGRESS_BACKEND_LIBS += $(SECCOMP_LIBS) $(CAPNG_LIBS) $(CARES_LIBS) -lpthread
endif
if HOST_DARWIN
EGRESS_BACKEND_SOURCES += $(EGRESS_PROCESS_SOURCES) $(EGRESS_PORTABLE_SOURCES)
EGRESS_BACKEND_LIBS += -lpthread
endif
# -I backends: the OS headers of backends/os (name_views.c: os/mount_api.h;
# egress_sbpl.c on macOS: os/sandbox_spi.h, the libsandbox prototypes).
EGRESS_BACKEND_CFLAGS = $(AM_CFLAGS) $(SECCOMP_CFLAGS) $(CAPNG_CFLAGS) $(CARES_CFLAGS) -pthread \
	-I$(top_srcdir)/backends
if HOST_LINUX
EGRESS_BACKEND_CFLAGS += -DEGRESS_VARIANT_NETNS -DEGRESS_VARIANT_LOOPBACK
endif
if HOST_DARWIN
EGRESS_BACKEND_CFLAGS += -DEGRESS_VARIANT_LOOPBACK
endif

noinst_LIBRARIES += backends/egress-proxy/libegress_policy.a
backends_egress_proxy_libegress_policy_a_SOURCES = $(EGRESS_POLICY_SOURCES)

if DYNAMIC_BACKENDS
backendmod_LTLIBRARIES += backends/egress-proxy.la
backends_egress_proxy_la_SOURCES = $(EGRESS_POLICY_SOURCES) $(EGRESS_BACKEND_SOURCES)
backends_egress_proxy_la_CPPFLAGS = $(AM_CPPFLAGS) -DHAS_BACKEND_MODULE
backends_egress_proxy_la_CFLAGS = $(EGRESS_BACKEND_CFLAGS)
backends_egress_proxy_la_LDFLAGS = -module -avoid-version -shared
backends_egress_proxy_la_LIBADD = $(EGRESS_BACKEND_LIBS)
else
noinst_LIBRARIES += backends/egress-proxy/libegress_backend.a
backends_egress_proxy_libegress_backend_a_SOURCES = $(EGRESS_BACKEND_SOURCES)
backends_egress_proxy_libegress_backend_a_CFLAGS = $(EGRESS_BACKEND_CFLAGS)
happy_agent_supervisor_LDADD += backends/egress-proxy/libegress_backend.a \
	backends/egress-proxy/libegress_policy.a $(EGRESS_BACKEND_LIBS)
HAS_BACKENDS += egress_proxy_backend
endif
endif

EXTRA_DIST += backends/egress-proxy/README.md
