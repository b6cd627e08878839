/*
 * proxy_connect.h — `happy-agent-supervisor --connect HOST PORT`: a TCP
 * client for programs that cannot speak to a proxy themselves (ssh's
 * ProxyCommand, git's core.sshCommand).  Inside a sandbox with an outgoing
 * proxy it reads the front-end's address and secret from HTTP_PROXY (or
 * https_proxy, ..., else ALL_PROXY), asks it for HOST:PORT (HTTP CONNECT,
 * or SOCKS5 with RFC 1929 credentials), and then copies stdin to the tunnel
 * and the tunnel to stdout.
 *
 * It needs no policy and grants nothing: the egress process decides HOST:PORT
 * like any other request.  It sends the secret only to a loopback literal
 * (the front-ends are always there), so a stray proxy variable outside a
 * sandbox cannot make it hand credentials to another host.
 */
#ifndef HAS_PROXY_CONNECT_H
#define HAS_PROXY_CONNECT_H

/* Returns the exit status: 0 when the tunnel ended normally, 125 (one line
 * on stderr saying why) when it could not be set up or failed. */
int proxy_connect_main(const char *host, const char *port);

#endif
