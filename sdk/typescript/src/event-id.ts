/**
 * The id of an event given without one, computed as the server computes it (SCORING.md §1,
 * 2026-11-23): the SHA-256 (hex) of the RFC 8785 form of
 * `{agent: the agent's id, type, timestamp: the instant in UTC with microseconds, data}`.
 *
 * Why not a random id: SCORING.md §1 makes two events identical in every field the same
 * event, whichever channel sent them (CLI, API, SDK). An id of the event's content keeps that
 * true and still makes every retry of the event carry the same id, so a retried batch never
 * doubles. When the SDK cannot compute the server's id exactly — the agent given by name
 * (`agent`), a timestamp it does not parse — the event is sent without id: the server then
 * derives the same content id itself, which is as stable across retries.
 */
import { sha256 } from "@noble/hashes/sha2";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils";

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/** RFC 8785 (JCS): keys sorted by UTF-16 code units, no whitespace, ECMAScript numbers. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === "boolean") return JSON.stringify(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new TypeError(`non-finite number ${value} (RFC 8785)`);
    return JSON.stringify(value);
  }
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) {
    return `[${value.map((item) => (item === undefined ? "null" : canonicalJson(item))).join(",")}]`;
  }
  if (typeof value === "object") {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(",")}}`;
  }
  throw new TypeError(`${typeof value} is not JSON`);
}

/** `YYYY-MM-DDTHH:MM:SS.ffffffZ` of an RFC 3339 timestamp with offset, or null. */
export function instantText(timestamp: string): string | null {
  const match = RFC3339.exec(timestamp);
  if (match === null) return null;
  const [, y, mo, d, h, mi, s, fraction, zulu, sign, oh, om] = match;
  if (Number(s) > 59) return null; // a leap second: leave it to the server
  let millis = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  const check = new Date(millis);
  if (check.getUTCDate() !== Number(d) || check.getUTCMonth() !== Number(mo) - 1) return null;
  if (zulu === undefined) {
    const offset = (Number(oh) * 60 + Number(om)) * 60_000;
    millis -= sign === "-" ? -offset : offset;
  }
  const instant = new Date(millis);
  if (Number.isNaN(instant.getTime()) || instant.getUTCFullYear() < 1 || instant.getUTCFullYear() > 9999) {
    return null;
  }
  const whole = instant.toISOString().slice(0, 19);
  return `${whole}.${(fraction ?? "").padEnd(6, "0")}Z`;
}

/** The server's id of this event content, or null when only the server can compute it. */
export function contentId(event: {
  agent_id?: unknown;
  type?: unknown;
  timestamp?: unknown;
  data?: unknown;
}): string | null {
  const { agent_id: agent, type, timestamp, data } = event;
  if (typeof agent !== "string" || !UUID.test(agent)) return null;
  if (typeof type !== "string" || typeof timestamp !== "string") return null;
  if (typeof data !== "object" || data === null || Array.isArray(data)) return null;
  const instant = instantText(timestamp);
  if (instant === null) return null;
  const hex = agent.replace(/-/g, "").toLowerCase();
  const canonicalAgent = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  let text: string;
  try {
    text = canonicalJson({ agent: canonicalAgent, type, timestamp: instant, data });
  } catch {
    return null; // not JSON the server would take (it rejects the event and names why)
  }
  return bytesToHex(sha256(utf8ToBytes(text)));
}
