/**
 * @slopus/happy-agent-supervisor: validate a policy for the supervisor, find
 * the executable that enforces it, ask it what the sandbox will be
 * (explainSandbox, briefFor), and read its refusal report.
 */
export {
    parseSupervisorPolicy,
    SupervisorPolicyError,
    POLICY_MAX_BYTES,
    type PolicyProblem,
} from "./policy.js";
export {
    SupervisorPolicySchema,
    SupervisorNetworkPolicySchema,
    SupervisorPolicyModeSchema,
    OutgoingProxySchema,
    OutgoingProxyFrontEndSchema,
    PolicyPathSchema,
    PolicyPathListSchema,
    AllowedHostEntrySchema,
    ScratchSchema,
    SCRATCH_MIN_BYTES,
    SCRATCH_MAX_BYTES,
    SCRATCH_DEFAULT_BYTES,
    POLICY_PATH_PATTERN,
    POLICY_PATH_MAX_BYTES,
    HOST_ENTRY_PATTERN,
    HOST_ENTRY_MAX_BYTES,
    type SupervisorPolicy,
    type SupervisorNetworkPolicy,
    type SupervisorLimits,
    SupervisorLimitsSchema,
    type SupervisorPolicyMode,
    type OutgoingProxy,
    type OutgoingProxyFrontEnd,
    type Scratch,
} from "./policy-schema.js";
export { resolveSupervisorBinary, resolveLinuxSupervisorBinary } from "./resolve.js";
export {
    readRefusalReport,
    parseRefusalLine,
    RefusalReportError,
    EgressRefusalSchema,
    EgressFailureSchema,
    UnixConnectRefusalSchema,
    IpConnectRefusalSchema,
    MetadataRefusalSchema,
    WorkloadEndedSchema,
    LimitReachedSchema,
    SandboxDiedSchema,
    ReportLineSchema,
    type EgressRefusal,
    type EgressFailure,
    type UnixConnectRefusal,
    type IpConnectRefusal,
    type MetadataRefusal,
    type WorkloadEnded,
    type LimitReached,
    type SandboxDied,
    type ReportLine,
    type UnknownReportEvent,
    type ReportEvent,
} from "./refusal-report.js";
export {
    explainSandbox,
    briefFor,
    ExplainError,
    ExplanationSchema,
    ExplanationItemSchema,
    ExplanationVerdictSchema,
    type Explanation,
    type ExplanationItem,
    type ExplanationVerdict,
    type ExplainOptions,
} from "./explain.js";
export {
    SUPERVISOR_TARGETS,
    ACCEPTED_ARCHITECTURES,
    type SupervisorTarget,
} from "./targets.js";
