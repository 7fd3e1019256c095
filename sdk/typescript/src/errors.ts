/**
 * The SDK's one error type (issue 18 §2): document 004 §6.4's error body
 * `{"error": {"code", "message", "details"}}` with the HTTP status it came with.
 *
 * Errors raised without an HTTP answer carry `status: null` and a code of the SDK's own:
 * `NETWORK_ERROR` (the server could not be reached), `CLIENT_CLOSED` (ingest after close),
 * `CLIENT_ERROR` (an answer the ingestion helper could not read),
 * `PAYLOAD_TOO_LARGE` (one event larger than the API's 1 MiB body limit, SCORING.md §7).
 * A rejected item of a batch carries the item's code (`INVALID_EVENT_TYPE`, `INVALID_REQUEST`,
 * `DUPLICATE_CONFLICT`, `FORBIDDEN`, …) and `status: null`: the batch itself was answered 201.
 */
export class AAAFError extends Error {
  readonly code: string;
  readonly details: Record<string, unknown>;
  readonly status: number | null;
  /** Seconds the server asked to wait (`Retry-After`), when it said. */
  readonly retryAfter: number | null;

  constructor(
    code: string,
    message: string,
    options: {
      details?: Record<string, unknown>;
      status?: number | null;
      retryAfter?: number | null;
      cause?: unknown;
    } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AAAFError";
    this.code = code;
    this.details = options.details ?? {};
    this.status = options.status ?? null;
    this.retryAfter = options.retryAfter ?? null;
  }

  /** The error of an HTTP answer that is not 2xx, from its §6.4 body when it has one. */
  static fromBody(status: number, body: unknown, retryAfter: number | null = null): AAAFError {
    const error = isRecord(body) && isRecord(body["error"]) ? body["error"] : null;
    if (error !== null && typeof error["code"] === "string") {
      const message = typeof error["message"] === "string" ? error["message"] : `HTTP ${status}`;
      const details = isRecord(error["details"]) ? error["details"] : {};
      return new AAAFError(error["code"], message, { details, status, retryAfter });
    }
    const text = typeof body === "string" ? body.slice(0, 500) : JSON.stringify(body ?? null).slice(0, 500);
    return new AAAFError(`HTTP_${status}`, `HTTP ${status}: ${text}`, { status, retryAfter });
  }
}

/** Seconds of a `Retry-After` header (delta-seconds or an HTTP date), or null. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (value === null || value.trim() === "") return null;
  const seconds = Number(value.trim());
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, (date - now) / 1000);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
