/**
 * The per-string rules of the policy, transcribed from core/policy_parse.c
 * (path_problem, policy_host_entry_problem) so both sides refuse the same
 * strings with the same words. Each returns undefined when the string is
 * acceptable, else why not.
 */
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
