/**
 * TypeBox schemas of the supervisor policy (README.md, "Policy"), mirroring the C parser
 * in core/policy_parse.c, which is the reference.
 *
 * The schemas carry everything JSON Schema can say: types, required and
 * unknown fields, the mode and front-end enums, and the syntax of a path and
 * of an allowedHosts entry as patterns. What JSON Schema cannot say — length
 * limits in UTF-8 bytes (maxLength counts UTF-16 units, so it is only a
 * necessary condition here), well-formed Unicode, duplicate front-ends and
 * the rules that relate fields to each other — parseSupervisorPolicy() adds.
 * Validate with parseSupervisorPolicy(), not with the schema alone.
 */
import { Type, type Static } from "@sinclair/typebox";

/** Longest accepted path, in UTF-8 bytes (PATH_MAX - 1). */
export const POLICY_PATH_MAX_BYTES = 4095;
/** Longest host an allowedHosts entry may name, in UTF-8 bytes (a DNS name). */
export const HOST_ENTRY_MAX_BYTES = 253;
/** Longest whole entry: the host, brackets and ":65535". */
const HOST_ENTRY_WITH_PORT_MAX_BYTES = HOST_ENTRY_MAX_BYTES + "[]:65535".length;

// One path component: not "." or "..", no "/" and no control character.
const PATH_COMPONENT = String.raw`(?!\.\.?(?:/|$))[^/\u0000-\u001f\u007f]+`;
/** Absolute; no empty, "." or ".." component; one trailing "/" allowed. */
export const POLICY_PATH_PATTERN = `^/(?:${PATH_COMPONENT}(?:/${PATH_COMPONENT})*/?)?$`;
// A name character (no colon) and an IPv6 literal character (colons allowed).
const HOST_CHAR = String.raw`[^\u0000-\u0020\u007f/@*\[\]:]`;
const V6_CHAR = String.raw`[^\u0000-\u0020\u007f/@*\[\]]`;
const PORT = String.raw`(?::(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?`;
/**
 * "host" or "*.suffix" with an optional ":port" (1..65535, no leading 0),
 * "[v6]" with an optional ":port", or a bare IPv6 literal (two or more ":"),
 * which names no port; at most 253 characters of host. No whitespace,
 * control character, "/", "@" or other "*".
 */
export const HOST_ENTRY_PATTERN =
    `^(?:(?=[^:]{1,253}(?::|$))(?:\\*\\.)?${HOST_CHAR}+${PORT}` +
    `|\\[(?=${V6_CHAR}{1,253}\\])${V6_CHAR}+\\]${PORT}` +
    `|(?=[^\\[\\]]{1,253}$)(?:\\*\\.(?!:))?${V6_CHAR}*:${V6_CHAR}*:${V6_CHAR}*)$`;

export const SupervisorPolicyModeSchema = Type.Union([
    Type.Literal("read_only"),
    Type.Literal("workspace_write"),
    Type.Literal("auto"),
    Type.Literal("full_access"),
]);

export const PolicyPathSchema = Type.String({
    pattern: POLICY_PATH_PATTERN,
    maxLength: POLICY_PATH_MAX_BYTES,
});

export const PolicyPathListSchema = Type.Array(PolicyPathSchema);

export const AllowedHostEntrySchema = Type.String({
    pattern: HOST_ENTRY_PATTERN,
    maxLength: HOST_ENTRY_WITH_PORT_MAX_BYTES,
});

export const OutgoingProxyFrontEndSchema = Type.Union([
    Type.Literal("http"),
    Type.Literal("socks5"),
    // Linux (linux-ns) only: a resolver and relay for clients without proxy settings.
    Type.Literal("transparent"),
]);

export const OutgoingProxySchema = Type.Object(
    {
        // Each front-end at most once; parseSupervisorPolicy() names the
        // repeated entry by index, which uniqueItems could not.
        frontEnds: Type.Array(OutgoingProxyFrontEndSchema, { minItems: 1 }),
        // Lets the platform's certificate verifier (macOS trustd) be asked,
        // which fetches the URLs a certificate names outside the proxy.
        allowUnproxiedCertificateFetches: Type.Optional(Type.Boolean()),
        /**
         * The caller's proxy every allowed destination is reached through:
         * "environment" (the caller's HTTPS_PROXY, HTTP_PROXY or ALL_PROXY,
         * and NO_PROXY) or "http://[user[:password]@]host:port".
         */
        upstream: Type.Optional(Type.String()),
    },
    { additionalProperties: false },
);

export const SupervisorNetworkPolicySchema = Type.Object(
    {
        egress: Type.Boolean(),
        allowedHosts: Type.Optional(Type.Array(AllowedHostEntrySchema)),
        /** Names that may also resolve to private, CGNAT, ULA, benchmarking or documentation addresses (no literals). */
        allowedInternalHosts: Type.Optional(Type.Array(AllowedHostEntrySchema)),
        localBinding: Type.Boolean(),
        outgoingProxy: Type.Optional(OutgoingProxySchema),
        /** Host Unix sockets the workload may connect() to, granted by the inode found there at launch (linux-ns, landlock). */
        allowedUnixSockets: Type.Optional(PolicyPathListSchema),
    },
    { additionalProperties: false },
);

// The policy's limits (README.md, "Limits"); the bounds are core/policy.h's.
export const SupervisorLimitsSchema = Type.Object(
    {
        /** Processes and threads of the workload's tree. */
        processes: Type.Optional(Type.Integer({ minimum: 1, maximum: 4194304 })),
        /** Memory of the tree, page cache and tmpfs pages included; at least 1 MiB. */
        memoryBytes: Type.Optional(Type.Integer({ minimum: 1048576, maximum: Number.MAX_SAFE_INTEGER })),
        /** Open descriptors per process (RLIMIT_NOFILE). */
        openFiles: Type.Optional(Type.Integer({ minimum: 1, maximum: 1073741816 })),
    },
    { additionalProperties: false },
);

/** scratch.sizeBytes: bounds and default, per directory (core/policy.h). */
export const SCRATCH_MIN_BYTES = 1 << 20;
export const SCRATCH_MAX_BYTES = 64 * 2 ** 30;
export const SCRATCH_DEFAULT_BYTES = 256 << 20;

/**
 * A private, empty tmpfs of sizeBytes on /tmp and on /var/tmp, discarded at
 * the end (linux-ns only; every other boundary refuses it).
 */
export const ScratchSchema = Type.Object(
    {
        sizeBytes: Type.Optional(Type.Integer({ minimum: SCRATCH_MIN_BYTES, maximum: SCRATCH_MAX_BYTES })),
    },
    { additionalProperties: false },
);

export const SupervisorPolicySchema = Type.Object(
    {
        mode: SupervisorPolicyModeSchema,
        allowedReadPaths: Type.Optional(PolicyPathListSchema),
        deniedReadPaths: Type.Optional(PolicyPathListSchema),
        allowedWritePaths: Type.Optional(PolicyPathListSchema),
        deniedWritePaths: Type.Optional(PolicyPathListSchema),
        network: SupervisorNetworkPolicySchema,
        limits: Type.Optional(SupervisorLimitsSchema),
        scratch: Type.Optional(ScratchSchema),
        /** Host character devices the workload may open, beneath /dev (linux-ns, landlock). */
        devices: Type.Optional(PolicyPathListSchema),
    },
    { additionalProperties: false },
);

export type SupervisorPolicyMode = Static<typeof SupervisorPolicyModeSchema>;
export type OutgoingProxyFrontEnd = Static<typeof OutgoingProxyFrontEndSchema>;
export type OutgoingProxy = Static<typeof OutgoingProxySchema>;
export type SupervisorNetworkPolicy = Static<typeof SupervisorNetworkPolicySchema>;
export type SupervisorLimits = Static<typeof SupervisorLimitsSchema>;
export type Scratch = Static<typeof ScratchSchema>;
export type SupervisorPolicy = Static<typeof SupervisorPolicySchema>;

/** The top-level fields that hold path lists, in document order. */
export const PATH_LIST_FIELDS = [
    "allowedReadPaths",
    "deniedReadPaths",
    "allowedWritePaths",
    "deniedWritePaths",
] as const;
