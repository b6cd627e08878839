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
/** Longest accepted allowedHosts entry, in UTF-8 bytes (a DNS name). */
export const HOST_ENTRY_MAX_BYTES = 253;

// One path component: not "." or "..", no "/" and no control character.
const PATH_COMPONENT = String.raw`(?!\.\.?(?:/|$))[^/\u0000-\u001f\u007f]+`;
/** Absolute; no empty, "." or ".." component; one trailing "/" allowed. */
export const POLICY_PATH_PATTERN = `^/(?:${PATH_COMPONENT}(?:/${PATH_COMPONENT})*/?)?$`;
/** "host" or "*.suffix"; no whitespace, control character, "/", "@" or other "*". */
export const HOST_ENTRY_PATTERN = String.raw`^(?:\*\.)?[^\u0000-\u0020\u007f/@*]+$`;

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
    maxLength: HOST_ENTRY_MAX_BYTES,
});

export const OutgoingProxyFrontEndSchema = Type.Union([Type.Literal("http"), Type.Literal("socks5")]);

export const OutgoingProxySchema = Type.Object(
    {
        // Each front-end at most once; parseSupervisorPolicy() names the
        // repeated entry by index, which uniqueItems could not.
        frontEnds: Type.Array(OutgoingProxyFrontEndSchema, { minItems: 1 }),
    },
    { additionalProperties: false },
);

export const SupervisorNetworkPolicySchema = Type.Object(
    {
        egress: Type.Boolean(),
        allowedHosts: Type.Optional(Type.Array(AllowedHostEntrySchema)),
        localBinding: Type.Boolean(),
        outgoingProxy: Type.Optional(OutgoingProxySchema),
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
    },
    { additionalProperties: false },
);

export type SupervisorPolicyMode = Static<typeof SupervisorPolicyModeSchema>;
export type OutgoingProxyFrontEnd = Static<typeof OutgoingProxyFrontEndSchema>;
export type OutgoingProxy = Static<typeof OutgoingProxySchema>;
export type SupervisorNetworkPolicy = Static<typeof SupervisorNetworkPolicySchema>;
export type SupervisorPolicy = Static<typeof SupervisorPolicySchema>;

/** The top-level fields that hold path lists, in document order. */
export const PATH_LIST_FIELDS = [
    "allowedReadPaths",
    "deniedReadPaths",
    "allowedWritePaths",
    "deniedWritePaths",
] as const;
