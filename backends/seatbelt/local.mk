# backends/seatbelt: rules for this part of the tree (owned by its backend).
#
# The profile generator is portable C: a noinst library built on EVERY
# platform, so Linux builds compile and unit-test it without any Darwin
# header.  Only seatbelt_darwin.c (sandbox_init, sandbox_check, the fork for
# the proxy case) is Darwin-only, and it is what registers the backend.
SBPL_GENERATOR_SOURCES = \
	backends/seatbelt/sbpl_buf.h backends/seatbelt/sbpl_buf.c \
	backends/seatbelt/sbpl_escape.h backends/seatbelt/sbpl_escape.c \
	backends/seatbelt/sbpl_pathset.h backends/seatbelt/sbpl_pathset.c \
	backends/seatbelt/sbpl_canon.h backends/seatbelt/sbpl_canon.c \
	backends/seatbelt/sbpl_rules.h backends/seatbelt/sbpl_rules.c \
	backends/seatbelt/sbpl_profile.h backends/seatbelt/sbpl_profile.c \
	backends/os/sandbox_spi.h

# The Darwin glue: the hooks (seatbelt_darwin.c) and --explain.
SEATBELT_DARWIN_SOURCES = backends/seatbelt/seatbelt.h backends/seatbelt/seatbelt_darwin.c \
	backends/seatbelt/seatbelt_explain.c

noinst_LIBRARIES += backends/seatbelt/libsbpl.a
backends_seatbelt_libsbpl_a_SOURCES = $(SBPL_GENERATOR_SOURCES)
backends_seatbelt_libsbpl_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/backends/seatbelt

# Developer tool (not installed): the profile for a policy, to try with
# sandbox-exec on a Mac without rebuilding the supervisor.
noinst_PROGRAMS += backends/seatbelt/happy-agent-supervisor-sbpl-print
backends_seatbelt_happy_agent_supervisor_sbpl_print_SOURCES = backends/seatbelt/sbpl_print.c
backends_seatbelt_happy_agent_supervisor_sbpl_print_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/backends/seatbelt
backends_seatbelt_happy_agent_supervisor_sbpl_print_LDADD = backends/seatbelt/libsbpl.a \
	core/libcore.a $(CJSON_LIBS)

EXTRA_DIST += backends/seatbelt/README.md

if HOST_DARWIN
if DYNAMIC_BACKENDS
# Developer build: one module the core dlopen()s.  A libtool module cannot
# link the non-PIC archive above, so it compiles the generator itself.
backendmod_LTLIBRARIES += backends/seatbelt.la
backends_seatbelt_la_SOURCES = $(SEATBELT_DARWIN_SOURCES) $(SBPL_GENERATOR_SOURCES)
backends_seatbelt_la_SOURCES += core/policy_paths.h core/policy_paths.c
backends_seatbelt_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/backends/seatbelt -I$(top_srcdir)/backends \
	-DHAS_BACKEND_MODULE
backends_seatbelt_la_LDFLAGS = -module -avoid-version -shared
else
# Release build: linked into the binary and listed in the static table.
noinst_LIBRARIES += backends/seatbelt/libseatbelt_backend.a
backends_seatbelt_libseatbelt_backend_a_SOURCES = $(SEATBELT_DARWIN_SOURCES)
backends_seatbelt_libseatbelt_backend_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/backends/seatbelt \
	-I$(top_srcdir)/backends
# libcore.a (and what it needs) again: the generator calls into it, and
# archives resolve left to right.
happy_agent_supervisor_LDADD += backends/seatbelt/libseatbelt_backend.a backends/seatbelt/libsbpl.a \
	core/libcore.a $(CJSON_LIBS)
HAS_BACKENDS += seatbelt_backend
endif
endif
