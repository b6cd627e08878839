# backends/egress-proxy: the filtered-egress backend (backends/egress-proxy/README.md).
#
# One folder per part (the README's "Layout"), each file included by its
# path from here ("policy/host_match.h") through the one EGRESS_CPPFLAGS:
#   .           the hooks (backend.h) and their platform variants
#   policy/     the decision logic: pure, portable, no I/O
#   parse/      the parsers of what clients send: pure, portable, fuzzed
#   process/    the egress process: loop, listeners, resolver, confinement, report lines
#   frontends/  the HTTP, SOCKS5, transparent and DNS front-ends
#   relay/      moving bytes once both sockets exist
# Includes run one way, never back up and never through "../":
# . -> process/ -> parse/ -> policy/; frontends/ and relay/ -> process/.
#
# The decision logic and the parsers (host matching, address classes, the
# HTTP, SOCKS5 and DNS parsers, credentials) are portable, pure C in one
# convenience library that the unit tests link too, with the report lines
# (process/refusal_report.c) they check.  The egress process is built on
# Linux and macOS.
if HAVE_BACKEND_EGRESS_PROXY
EGRESS_POLICY_SOURCES = \
	backends/egress-proxy/policy/addr_class.h backends/egress-proxy/policy/addr_class.c \
	backends/egress-proxy/policy/host_match.h backends/egress-proxy/policy/host_match.c \
	backends/egress-proxy/policy/destination.h backends/egress-proxy/policy/destination.c \
	backends/egress-proxy/parse/http_parse.h backends/egress-proxy/parse/http_parse.c \
	backends/egress-proxy/parse/socks5_parse.h backends/egress-proxy/parse/socks5_parse.c \
	backends/egress-proxy/parse/dns_parse.h backends/egress-proxy/parse/dns_parse.c \
	backends/egress-proxy/policy/synth_table.h backends/egress-proxy/policy/synth_table.c \
	backends/egress-proxy/policy/proxy_auth.h backends/egress-proxy/policy/proxy_auth.c \
	backends/egress-proxy/policy/upstream_proxy.h backends/egress-proxy/policy/upstream_proxy.c \
	backends/egress-proxy/process/refusal_report.h backends/egress-proxy/process/refusal_report.c
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
# egress_spawn.c is the hooks' side of the fork (so in the top folder),
# built only where there is an egress process to fork.
# EGRESS_LOOP_SOURCES: the loop and what it drives, which test_relay runs
# in a thread (tests/egress-proxy/local.mk).
EGRESS_LOOP_SOURCES = \
	backends/egress-proxy/process/conn.h backends/egress-proxy/process/egress_compat.h \
	backends/egress-proxy/process/evpoll.h \
	backends/egress-proxy/process/egress_loop.h backends/egress-proxy/process/egress_loop.c \
	backends/egress-proxy/frontends/http_frontend.c \
	backends/egress-proxy/frontends/socks5_frontend.c \
	backends/egress-proxy/frontends/transparent_frontend.c backends/egress-proxy/frontends/dns_frontend.c \
	backends/egress-proxy/process/upstream.c backends/egress-proxy/process/upstream_tunnel.c \
	backends/egress-proxy/relay/relay.c \
	backends/egress-proxy/process/resolver.h backends/egress-proxy/process/resolver.c
EGRESS_PROCESS_SOURCES = $(EGRESS_LOOP_SOURCES) \
	backends/egress-proxy/process/confine.h \
	backends/egress-proxy/process/egress_process.h backends/egress-proxy/process/egress_process.c \
	backends/egress-proxy/egress_spawn.h backends/egress-proxy/egress_spawn.c
# Linux: epoll, splice(2), seccomp + libcap-ng; listeners from the sandbox's
# netns (linux-ns) or bound on the host's loopback (landlock).
EGRESS_LINUX_SOURCES = \
	backends/egress-proxy/egress_netns.c backends/egress-proxy/egress_loopback.c \
	backends/egress-proxy/name_views.h backends/egress-proxy/name_views.c \
	backends/egress-proxy/process/frontend_bind.h backends/egress-proxy/process/frontend_bind.c \
	backends/egress-proxy/process/evpoll_epoll.c backends/egress-proxy/relay/relay_splice.c \
	backends/egress-proxy/process/confine.c backends/egress-proxy/process/resolver_ares.c
# macOS: poll(2), recv/send copy, no seccomp; listeners on host loopback.
# Also compiled on Linux, with -DEGRESS_PORTABLE, for test programs only
# (tests/egress-proxy/local.mk), so this path runs in `make check` here.
EGRESS_PORTABLE_SOURCES = \
	backends/egress-proxy/egress_loopback.c \
	backends/egress-proxy/process/evpoll_poll.c backends/egress-proxy/relay/relay_copy.c \
	backends/egress-proxy/process/confine_portable.c backends/egress-proxy/process/resolver_libc.c \
	backends/egress-proxy/process/egress_sbpl.h backends/egress-proxy/process/egress_sbpl.c \
	backends/egress-proxy/process/frontend_bind.h backends/egress-proxy/process/frontend_bind.c
if HOST_LINUX
EGRESS_BACKEND_SOURCES += $(EGRESS_PROCESS_SOURCES) $(EGRESS_LINUX_SOURCES)
EGRESS_BACKEND_LIBS += $(SECCOMP_LIBS) $(CAPNG_LIBS) $(CARES_LIBS) -lpthread
endif
if HOST_DARWIN
EGRESS_BACKEND_SOURCES += $(EGRESS_PROCESS_SOURCES) $(EGRESS_PORTABLE_SOURCES)
EGRESS_BACKEND_LIBS += -lpthread
endif
# EGRESS_CPPFLAGS: this backend's files by their paths from its folder.
# -I backends: the OS headers of backends/os (name_views.c: os/mount_api.h;
# egress_sbpl.c on macOS: os/sandbox_spi.h, the libsandbox prototypes).
EGRESS_CPPFLAGS = -I$(top_srcdir)/backends/egress-proxy
EGRESS_BACKEND_CFLAGS = $(AM_CFLAGS) $(SECCOMP_CFLAGS) $(CAPNG_CFLAGS) $(CARES_CFLAGS) -pthread \
	$(EGRESS_CPPFLAGS) -I$(top_srcdir)/backends
if HOST_LINUX
EGRESS_BACKEND_CFLAGS += -DEGRESS_VARIANT_NETNS -DEGRESS_VARIANT_LOOPBACK
endif
if HOST_DARWIN
EGRESS_BACKEND_CFLAGS += -DEGRESS_VARIANT_LOOPBACK
endif

noinst_LIBRARIES += backends/egress-proxy/libegress_policy.a
backends_egress_proxy_libegress_policy_a_SOURCES = $(EGRESS_POLICY_SOURCES)
backends_egress_proxy_libegress_policy_a_CPPFLAGS = $(AM_CPPFLAGS) $(EGRESS_CPPFLAGS)

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
