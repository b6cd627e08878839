/**
 * The per-string rules of the policy, transcribed from core/policy_parse.c
 * (path_problem, policy_host_entry_problem) so both sides refuse the same
 * strings with the same words. Each returns undefined when the string is
 * acceptable, else why not.
 */
import { isIPv6 } from "node:net";
import { HOST_ENTRY_MAX_BYTES, POLICY_PATH_MAX_BYTES } from "./policy-schema.js";

/** Length of `s` in UTF-8 bytes (s must be well-formed). */
export function utf8ByteLength(s: string): number {
    let bytes = 0;
    for (const ch of s) {
        const cp = ch.codePointAt(0) ?? 0;
        bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    }
    return bytes;
}

/**
 * True when `s` has a lone surrogate. Such a string has no UTF-8 form: the C
 * side refuses the whole document ("\ud800" does not parse), and serialising
 * it would silently turn it into U+FFFD, a different path.
 */
export function hasLoneSurrogate(s: string): boolean {
    return /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);
}

const LONE_SURROGATE = "is not well-formed Unicode (it has a lone surrogate)";

function hasControlCharacter(s: string): boolean {
    return /[\u0000-\u001f\u007f]/.test(s);
}

export function policyPathProblem(path: string): string | undefined {
    if (hasLoneSurrogate(path)) return LONE_SURROGATE;
    if (path.length === 0) return "must not be empty";
    if (!path.startsWith("/")) return "must be an absolute path";
    if (utf8ByteLength(path) > POLICY_PATH_MAX_BYTES) return "is longer than 4095 bytes";
    if (hasControlCharacter(path)) return "contains a control character";
    // Components after the leading "/"; one trailing "/" is allowed.
    const rest = path.slice(1);
    const components = rest.endsWith("/") ? rest.slice(0, -1).split("/") : rest.split("/");
    if (rest === "") return undefined;
    for (const component of components) {
        if (component === "") return 'contains an empty component ("//")';
        if (component === "." || component === "..") return 'contains a "." or ".." component';
    }
    return undefined;
}

/** A `devices` entry: a policy path beneath /dev (core/policy_parse.c, device_path_problem). */
export function devicePathProblem(path: string): string | undefined {
    const problem = policyPathProblem(path);
    if (problem !== undefined) return problem;
    if (!path.startsWith("/dev/") || path.length === 5) return "must name a device beneath /dev";
    return undefined;
}

/** A port as written in an entry: 1..65535 in decimal, no sign, no leading 0. */
function portTextValid(text: string): boolean {
    return /^[1-9][0-9]{0,4}$/.test(text) && Number(text) <= 65535;
}

/**
 * The host/port split of an entry (policy_host_entry_split): host [":" port],
 * "[v6]" [":" port], or a bare IPv6 literal (more than one ":"), which names
 * no port. Returns why the split fails, or undefined.
 */
export function hostEntrySplitProblem(entry: string): string | undefined {
    const close = entry.indexOf("]");
    const colon = entry.indexOf(":");
    let host = entry;
    let port: string | undefined;
    if (entry.startsWith("[")) {
        if (close === -1) return "opens '[' without a closing ']'";
        if (entry.indexOf("[", 1) !== -1 || entry.indexOf("]", close + 1) !== -1)
            return "'[' and ']' may only enclose a whole IPv6 literal";
        const after = entry.slice(close + 1);
        if (after !== "" && !after.startsWith(":")) return 'has something other than ":port" after \']\'';
        host = entry.slice(0, close + 1);
        if (after !== "") port = after.slice(1);
    } else if (entry.includes("[") || close !== -1) {
        return "'[' and ']' may only enclose a whole IPv6 literal";
    } else if (colon !== -1 && entry.indexOf(":", colon + 1) === -1) {
        host = entry.slice(0, colon);
        port = entry.slice(colon + 1);
    }
    if (host === "" || host === "[]") return "names no host";
    if (port !== undefined && !portTextValid(port))
        return "has a port that is not a number from 1 to 65535 (without leading zeros)";
    const bare = host.startsWith("[") ? host.slice(1, -1) : host;
    if (utf8ByteLength(bare) > HOST_ENTRY_MAX_BYTES) return "names a host longer than 253 bytes";
    return undefined;
}

/**
 * An allowedInternalHosts entry (policy_internal_host_entry_problem): an
 * allowedHosts entry that names a host, not an IP literal.
 */
export function internalHostEntryProblem(entry: string): string | undefined {
    const problem = hostEntryProblem(entry);
    if (problem !== undefined) return problem;
    const colon = entry.indexOf(":");
    const oneColon = colon !== -1 && entry.indexOf(":", colon + 1) === -1;
    const host = oneColon ? entry.slice(0, colon) : entry;
    if (entry.startsWith("[") || host.includes(":") || /^[0-9.]*$/.test(host))
        return "is an IP literal: list it in allowedHosts, which reaches a literal whatever its address class (allowedInternalHosts is for names)";
    return undefined;
}

export function hostEntryProblem(entry: string): string | undefined {
    if (hasLoneSurrogate(entry)) return LONE_SURROGATE;
    if (entry.length === 0) return "must not be empty";
    for (const ch of entry) {
        const cp = ch.codePointAt(0) ?? 0;
        if (cp <= 0x20 || cp === 0x7f) return "contains whitespace or a control character";
        if (ch === "/") return "contains '/': name a host, not a URL";
        if (ch === "@") return "contains '@': name a host, not credentials";
    }
    if (entry === "*") return "a bare '*' is refused: open egress is expressed by configuring no proxy";
    const star = entry.indexOf("*");
    if (star !== -1) {
        if (star !== 0 || entry[1] !== "." || entry.indexOf("*", 1) !== -1)
            return "'*' is allowed only as a leading \"*.\" (\"*.example.com\")";
        if (entry.length === 2 || entry[2] === ":") return '"*." needs a suffix ("*.example.com")';
    }
    return hostEntrySplitProblem(entry);
}

/**
 * network.outgoingProxy.upstream given as a URL (proxy_upstream_url_parse
 * in core/proxy_client.c): http://[user[:password]@]host:port[/], printable
 * ASCII, the credentials %-encoded, the port required.
 */
export function upstreamUrlProblem(text: string): string | undefined {
    if (hasLoneSurrogate(text)) return LONE_SURROGATE;
    if (utf8ByteLength(text) > 2048) return "is longer than 2048 bytes";
    if (/[^\x21-\x7e]/.test(text)) return "must be printable ASCII without spaces (%-encode other bytes of the credentials)";
    const notHttp = "must start with http:// (http://host:port)";
    const sep = text.indexOf("://");
    if (sep < 0) return notHttp;
    const scheme = text.slice(0, sep).toLowerCase();
    if (scheme === "https") return "is an https:// proxy, which is not supported: give the proxy's http:// address";
    if (scheme === "socks5" || scheme === "socks5h")
        return "is a SOCKS proxy, which is not supported as an upstream: give an HTTP proxy's http:// address";
    if (scheme !== "http") return notHttp;
    const rest = text.slice(sep + 3);
    const end = rest.search(/[/?#]/);
    const authority = end < 0 ? rest : rest.slice(0, end);
    if (end >= 0 && rest.slice(end) !== "/") return "must have no path, query or fragment (http://host:port)";
    const at = authority.lastIndexOf("@");
    if (at >= 0) {
        const why = userinfoProblem(authority.slice(0, at));
        if (why) return why;
    }
    return hostPortProblem(authority.slice(at + 1));
}

function decodedPartProblem(part: string): string | undefined {
    let bytes = 0;
    for (let i = 0; i < part.length; i++) {
        if (part[i] === "%") {
            const hex = part.slice(i + 1, i + 3);
            if (i + 2 >= part.length || !/^[0-9A-Fa-f]{2}$/.test(hex))
                return "has a '%' not followed by two hex digits in its credentials";
            const c = parseInt(hex, 16);
            i += 2;
            if (c < 0x20 || c === 0x7f) return "has a %-encoded control character in its credentials";
        }
        if (++bytes > 255) return "has a user name or password longer than 255 bytes";
    }
    return undefined;
}

function userinfoProblem(userinfo: string): string | undefined {
    const colon = userinfo.indexOf(":");
    const user = colon < 0 ? userinfo : userinfo.slice(0, colon);
    if (user === "") return "has credentials with an empty user name";
    return decodedPartProblem(user) ?? (colon < 0 ? undefined : decodedPartProblem(userinfo.slice(colon + 1)));
}

function hostPortProblem(hp: string): string | undefined {
    const needsPort = "needs a port from 1 to 65535 (http://host:port)";
    let portText: string;
    if (hp.startsWith("[")) {
        const close = hp.indexOf("]");
        const inner = close < 0 ? "" : hp.slice(1, close);
        if (close < 0 || inner === "" || inner.length >= 256) return "has an IPv6 host without its closing ']'";
        // inet_pton(AF_INET6): no zone index.
        if (inner.includes("%") || !isIPv6(inner)) return "has a bracketed host that is not an IPv6 address";
        if (hp[close + 1] !== ":") return needsPort;
        portText = hp.slice(close + 2);
    } else {
        const colon = hp.lastIndexOf(":");
        const host = colon < 0 ? hp : hp.slice(0, colon);
        if (host === "") return "has no host";
        if (host.length > 253 || !/^[A-Za-z0-9._-]+$/.test(host))
            return "has a host that is not a name of letters, digits, '.', '_' and '-', an IPv4 address or a bracketed IPv6 address";
        if (colon < 0) return needsPort;
        portText = hp.slice(colon + 1);
    }
    return portTextValid(portText) ? undefined : needsPort;
}
