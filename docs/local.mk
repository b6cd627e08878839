# docs/: the manual page, installed by `make install` and in the tarball.
dist_man1_MANS = docs/happy-agent-supervisor.1
