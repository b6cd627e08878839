/**
 * The explain mode (README.md, "Explain mode"): what the sandbox will be
 * on this host for a policy, a verdict for each operation asked about, and
 * a brief for an agent's context -- computed by the binary itself
 * (`--explain=json`), which runs nothing.
 */
import { execFile } from "node:child_process";
import { Type, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { resolveSupervisorBinary } from "./resolve.js";

const NullableString = Type.Union([Type.String(), Type.Null()]);

export const ExplanationItemSchema = Type.Object(
    { backend: Type.String(), kind: Type.String(), subject: Type.String(), how: Type.String() },
    { additionalProperties: false },
);
export const ExplanationVerdictSchema = Type.Object(
    {
        operation: Type.Union([Type.Literal("read"), Type.Literal("write"), Type.Literal("connect"), Type.Literal("unix-socket")]),
        given: Type.String(),
        path: NullableString,
        verdict: Type.Union([Type.Literal("allowed"), Type.Literal("refused"), Type.Literal("undecided")]),
        backend: NullableString,
        rule: NullableString,
    },
    { additionalProperties: false },
);
/** `--explain=json`'s object. */
export const ExplanationSchema = Type.Object(
    {
        version: Type.Literal(1),
        backends: Type.Array(Type.String()),
        launch: Type.Object({ ok: Type.Boolean(), error: NullableString }, { additionalProperties: false }),
        items: Type.Array(ExplanationItemSchema),
        verdicts: Type.Array(ExplanationVerdictSchema),
        brief: Type.String(),
    },
    { additionalProperties: false },
);
export type ExplanationItem = Static<typeof ExplanationItemSchema>;
export type ExplanationVerdict = Static<typeof ExplanationVerdictSchema>;
export type Explanation = Static<typeof ExplanationSchema>;

export interface ExplainOptions {
    /** --sandbox NAME (linux-ns, landlock); default: the build's default. */
    sandbox?: string;
    /** Paths to read, to create or write, Unix sockets to connect() to. */
    read?: string[];
    write?: string[];
    unixSocket?: string[];
    /** host:port destinations. */
    connectTo?: string[];
    /** The working directory the sandbox would be built for (default: this process's). */
    cwd?: string;
    /** The executable (default: resolveSupervisorBinary()). */
    binaryPath?: string;
}

/** The binary's explain mode failed to answer (not a launch refusal: that is launch.ok false). */
export class ExplainError extends Error {
    constructor(message: string) {
        super(message);
        this.name = "ExplainError";
    }
}

function explainArgs(policy: unknown, format: string, options: ExplainOptions): string[] {
    const args = [`--explain=${format}`, "--policy", typeof policy === "string" ? policy : JSON.stringify(policy)];
    if (options.sandbox !== undefined) args.push("--sandbox", options.sandbox);
    for (const p of options.read ?? []) args.push("--read", p);
    for (const p of options.write ?? []) args.push("--write", p);
    for (const p of options.connectTo ?? []) args.push("--connect-to", p);
    for (const p of options.unixSocket ?? []) args.push("--unix-socket", p);
    return args;
}

/* stdout, and the exit status: 0 (would start) or 125 (would not, or a bad argument). */
function run(args: string[], options: ExplainOptions): Promise<{ stdout: string; stderr: string; code: number }> {
    const binary = options.binaryPath ?? resolveSupervisorBinary();
    return new Promise((resolve, reject) => {
        execFile(binary, args, { cwd: options.cwd, maxBuffer: 16 << 20, encoding: "utf8" }, (error, stdout, stderr) => {
            const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
            if (error && code !== 125) reject(new ExplainError(`${binary} --explain failed: ${error.message}`));
            else resolve({ stdout, stderr, code });
        });
    });
}

/**
 * What the sandbox will be for `policy` on this host, with a verdict for
 * each operation in `options`. A launch that would fail is `launch.ok`
 * false with the launch's message; a policy or an argument the binary
 * refuses (nothing explained) throws ExplainError with its message.
 */
export async function explainSandbox(policy: unknown, options: ExplainOptions = {}): Promise<Explanation> {
    const { stdout, stderr } = await run(explainArgs(policy, "json", options), options);
    let value: unknown;
    try {
        value = JSON.parse(stdout);
    } catch {
        throw new ExplainError(stderr.trim() || "--explain=json printed no JSON");
    }
    const problem = Value.Errors(ExplanationSchema, value).First();
    if (problem) throw new ExplainError(`--explain=json: ${problem.path || "/"}: ${problem.message}`);
    return value as Explanation;
}

/** The brief for an agent's context (`--explain=brief`): a few plain-text lines. */
export async function briefFor(policy: unknown, options: Omit<ExplainOptions, "read" | "write" | "connectTo" | "unixSocket"> = {}): Promise<string> {
    return (await explainSandbox(policy, options)).brief;
}
