/**
 * TypeBox's validation errors in the words of core/policy_parse.c: JSON
 * pointers become the C side's "$.a.b[0]" paths (keys printed the way it
 * prints them), and each error gets the C parser's message for that field.
 */
import type { TSchema } from "@sinclair/typebox";
import { ValueErrorType, type ValueError } from "@sinclair/typebox/errors";
import { SCRATCH_MAX_BYTES, SCRATCH_MIN_BYTES } from "./policy-schema.js";
import { devicePathProblem, hostEntryProblem, internalHostEntryProblem, policyPathProblem } from "./policy-rules.js";

function jsonTypeName(value: unknown): string {
    if (value === null) return "null";
    if (Array.isArray(value)) return "an array";
    switch (typeof value) {
        case "object": return "an object";
        case "string": return "a string";
        case "number": return "a number";
        case "boolean": return "a boolean";
        default: return "an invalid value";
    }
}

/**
 * A key as the C side prints it in a path: printable ASCII kept, every other
 * UTF-8 byte shown as "?", cut after 75 bytes with "...", so a hostile field
 * name cannot forge or break the one-line message.
 */
function printableKey(key: string): string {
    const bytes = new TextEncoder().encode(key);
    let out = "";
    for (let i = 0; i < bytes.length && i < 75; i++) {
        const b = bytes[i] ?? 0;
        out += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : "?";
    }
    return bytes.length >= 76 ? `${out}...` : out;
}

/** "/network/allowedHosts/0" in `document` → "$.network.allowedHosts[0]". */
export function jsonPointerToPath(document: unknown, pointer: string): string {
    let path = "$";
    let node: unknown = document;
    if (pointer === "") return path;
    for (const raw of pointer.slice(1).split("/")) {
        const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
        if (Array.isArray(node)) {
            path += `[${key}]`;
            node = node[Number(key)];
        } else {
            path += `.${printableKey(key)}`;
            node = node !== null && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined;
        }
    }
    return path;
}

function literalsOf(schema: TSchema): string[] {
    const variants = (schema as { anyOf?: Array<{ const?: unknown }> }).anyOf ?? [];
    return variants.map((v) => JSON.stringify(v.const));
}

/** Edit distance of two short ASCII names in lower case; Infinity when either is long or not ASCII. */
function nameDistance(a: string, b: string): number {
    if (a.length > 64 || b.length > 64 || /[^\x00-\x7f]/.test(a + b)) return Infinity;
    const x = a.toLowerCase(), y = b.toLowerCase();
    let row = Array.from({ length: y.length + 1 }, (_, j) => j);
    for (let i = 1; i <= x.length; i++) {
        const next = [i];
        for (let j = 1; j <= y.length; j++)
            next.push(Math.min(row[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1), row[j]! + 1, next[j - 1]! + 1));
        row = next;
    }
    return row[y.length]!;
}

/**
 * The known field an unknown one most likely meant: within two edits (case
 * aside), the nearest, the first in byte order on a tie (core/policy_parse.c,
 * nearest_field).
 */
export function didYouMean(name: string, known: readonly string[]): string | undefined {
    let best: string | undefined;
    let bestDistance = 3;
    for (const k of known) {
        const d = nameDistance(name, k);
        if (d < bestDistance || (d === bestDistance && best !== undefined && k < best)) {
            best = k;
            bestDistance = d;
        }
    }
    return best;
}

/** The C parser's words for a schema violation at `path`. */
export function describeSchemaError(error: ValueError, path: string): string {
    const actual = jsonTypeName(error.value);
    if (path === "$.scratch.sizeBytes")
        return `must be a whole number of bytes from ${SCRATCH_MIN_BYTES} (1 MiB) to ${SCRATCH_MAX_BYTES} (64 GiB)`;
    switch (error.type) {
        case ValueErrorType.ObjectRequiredProperty:
            return "required field is missing";
        case ValueErrorType.ObjectAdditionalProperties: {
            const known = Object.keys((error.schema as { properties?: Record<string, unknown> }).properties ?? {});
            const raw = error.path.slice(error.path.lastIndexOf("/") + 1).replace(/~1/g, "/").replace(/~0/g, "~");
            const meant = didYouMean(raw, known);
            return meant === undefined ? "unknown field" : `unknown field (did you mean "${meant}"?)`;
        }
        case ValueErrorType.Object:
            return path === "$"
                ? `the policy must be a JSON object, not ${actual}`
                : `must be an object, not ${actual}`;
        case ValueErrorType.Boolean:
            return `must be a boolean, not ${actual}`;
        case ValueErrorType.Array: {
            const items = (error.schema as { items?: TSchema }).items;
            const ofStrings = items !== undefined && items.type === "string";
            return `must be an array${ofStrings ? " of strings" : ""}, not ${actual}`;
        }
        case ValueErrorType.ArrayMinItems: {
            const items = (error.schema as { items?: TSchema }).items;
            return `must name at least one of ${items ? literalsOf(items).join(", ") : "the allowed values"}`;
        }
        case ValueErrorType.String:
            return `must be a string, not ${actual}`;
        case ValueErrorType.Union: {
            const literals = literalsOf(error.schema);
            return literals.length === 2
                ? `must be ${literals[0]} or ${literals[1]}`
                : `must be one of ${literals.join(", ")}`;
        }
        case ValueErrorType.StringPattern:
        case ValueErrorType.StringMaxLength:
        case ValueErrorType.StringMinLength:
            return stringProblem(path, String(error.value)) ?? error.message;
        default:
            return error.message;
    }
}

/** Path lists hold paths; $.network.allowedHosts and allowedInternalHosts hold host entries. */
export function stringProblem(path: string, value: string): string | undefined {
    if (path.startsWith("$.network.allowedHosts[")) return hostEntryProblem(value);
    if (path.startsWith("$.network.allowedInternalHosts[")) return internalHostEntryProblem(value);
    if (path.startsWith("$.devices[")) return devicePathProblem(value);
    return policyPathProblem(value);
}
