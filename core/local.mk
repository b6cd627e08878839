# core/: the platform-neutral launcher.  The policy code is also a library so
# the unit tests (and fuzzers) link exactly what the binary runs.
noinst_LIBRARIES += core/libpolicy.a
core_libpolicy_a_SOURCES = \
	core/policy.h core/policy_parse.c \
	core/json_text.h core/json_text.c \
	core/policy_read.h core/policy_read.c
# The path algebra every backend uses (modules compile it in themselves).
core_libpolicy_a_SOURCES += core/policy_paths.h core/policy_paths.c
core_libpolicy_a_CFLAGS = $(AM_CFLAGS) $(CJSON_CFLAGS)

STATIC_BACKEND_DEFS =
bin_PROGRAMS += happy-agent-supervisor
happy_agent_supervisor_SOURCES = \
	core/main.c \
	core/backend.h core/sandbox_ctx.c \
	core/backend_set.h core/backend_set.c \
	core/cli.h core/cli.c \
	core/diag.h core/diag.c \
	core/exec_target.h core/exec_target.c \
	core/launch.h core/launch.c \
	core/proxy_connect.h core/proxy_connect.c \
	core/self_protect.h core/self_protect.c \
	core/supervise.h core/supervise.c
# The proxy's environment, the egress backend's and --connect's.
happy_agent_supervisor_SOURCES += core/proxy_env.h
happy_agent_supervisor_CFLAGS = $(AM_CFLAGS)
happy_agent_supervisor_LDADD = core/libpolicy.a $(CJSON_LIBS)
happy_agent_supervisor_LDFLAGS = $(AM_LDFLAGS)

if DYNAMIC_BACKENDS
happy_agent_supervisor_SOURCES += core/backend_dlopen.c
happy_agent_supervisor_CPPFLAGS = $(AM_CPPFLAGS) \
	-DHAS_BACKEND_MODULE_DIR='"$(abs_top_builddir)/backends/.libs"'
# Modules call back into the core (sandbox_fail, sandbox_env_set, ...).
happy_agent_supervisor_LDFLAGS += $(EXPORT_DYNAMIC_LDFLAGS)
else
# Each backend's local.mk that links itself in appends -DHAVE_BACKEND_<NAME>
# to STATIC_BACKEND_DEFS, so the static table lists exactly what was built.
happy_agent_supervisor_SOURCES += core/backend_static.c
happy_agent_supervisor_CPPFLAGS = $(AM_CPPFLAGS) $(STATIC_BACKEND_DEFS)
# The table's contents come from the Makefile, which make does not track:
# rebuild it whenever the Makefile (and so the set of backends) changes.
core/happy_agent_supervisor-backend_static.$(OBJEXT): Makefile
endif
