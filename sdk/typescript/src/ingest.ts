/**
 * The ingestion helper (issue 18 §1-2): `ingest(event)` queues an event; a batch is sent when
 * 1 000 events are queued or every 5 seconds, chunked under the API's limits (SCORING.md §7:
 * at most 1 000 events and 1 MiB per `POST /api/v1/events/batch`, `aaaf.api.limits`).
 *
 * A batch answered 429, 502, 503 or 504, or lost to a network error, is sent again — the same
 * events with the same ids (see `event-id.ts`), so a retry never doubles an event — after the
 * server's `Retry-After` or an exponential backoff with jitter. `flush()` and `close()` resolve
 * only when every event queued before them was acknowledged or reported failed, with a summary.
 */
import { AAAFError, isRecord, parseRetryAfter } from "./errors.js";
import { contentId } from "./event-id.js";
import type { components } from "./generated/openapi.js";

export type BatchResult = components["schemas"]["BatchResult"];

/** One evidence event (SCORING.md §1); `timestamp` may be given as a `Date`. */
export interface IngestEvent {
  id?: string;
  agent_id?: string;
  agent?: string;
  type: string;
  timestamp: string | Date;
  data: Record<string, unknown>;
  [field: string]: unknown;
}

/** A sent event as the server received it (with the id the SDK gave it, if any). */
export type SentEvent = Omit<IngestEvent, "timestamp"> & { timestamp: string };

export interface Rejected {
  event: SentEvent;
  error: AAAFError;
}

/** What a `flush()` or `close()` reports: every event settled since the previous report. */
export interface IngestSummary {
  accepted: number;
  duplicates: number;
  rejected: Rejected[];
  /** Events refused because the queue was full (`onFull: "drop"`). */
  dropped: number;
}

export interface IngestOptions {
  /** Send as soon as this many events are queued (default 1 000, the API's batch limit). */
  flushAt?: number;
  /** Send what is queued at least this often, in ms (default 5 000); the timer is unref'd. */
  flushIntervalMs?: number;
  /** Most events waiting in the queue (default 10 000). */
  maxQueueSize?: number;
  /** A full queue makes `ingest` wait for room ("block", default) or drop the event. */
  onFull?: "block" | "drop";
  /** Retries of one batch before its events are reported failed (default 10). */
  maxRetries?: number;
  /** First backoff in ms, doubled each retry (default 500); capped by `maxBackoffMs` (30 000). */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Called for each failed batch or rejected event, besides the summary. */
  onError?: (error: AAAFError, events: SentEvent[]) => void;
  /** Node: send pending events when the event loop empties (default true). */
  flushOnExit?: boolean;
}

/** SCORING.md §7 / `aaaf.api.limits`: events per batch and bytes per body. */
export const MAX_BATCH_EVENTS = 1_000;
export const MAX_BODY_BYTES = 1_048_576;
const BODY_OVERHEAD = '{"events":[]}'.length;
const RETRIED = new Set([429, 502, 503, 504]);

type Send = (body: string) => Promise<Response>;

interface Queued {
  event: SentEvent;
  json: string;
  bytes: number;
}

const encoder = new TextEncoder();

export class Ingestor {
  private readonly queue: Queued[] = [];
  private readonly waiters: Array<() => void> = [];
  private readonly idle: Array<() => void> = [];
  private summary: IngestSummary = { accepted: 0, duplicates: 0, rejected: [], dropped: 0 };
  private pumping = false;
  private closed = false;
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly exitHook: (() => void) | undefined;
  private readonly options: Required<Omit<IngestOptions, "onError">> & Pick<IngestOptions, "onError">;
  /** Events dropped because the queue was full, over the client's life. */
  dropped = 0;

  constructor(
    private readonly send: Send,
    options: IngestOptions = {},
  ) {
    this.options = {
      flushAt: Math.min(options.flushAt ?? MAX_BATCH_EVENTS, MAX_BATCH_EVENTS),
      flushIntervalMs: options.flushIntervalMs ?? 5_000,
      maxQueueSize: options.maxQueueSize ?? 10_000,
      onFull: options.onFull ?? "block",
      maxRetries: options.maxRetries ?? 10,
      backoffMs: options.backoffMs ?? 500,
      maxBackoffMs: options.maxBackoffMs ?? 30_000,
      onError: options.onError,
      flushOnExit: options.flushOnExit ?? true,
    };
    if (this.options.maxQueueSize < 1) throw new RangeError("maxQueueSize must be at least 1");
    const proc = (globalThis as { process?: NodeJS.Process }).process;
    if (this.options.flushOnExit && typeof proc?.on === "function") {
      this.exitHook = () => {
        if (this.queue.length > 0) void this.pump();
      };
      proc.on("beforeExit", this.exitHook);
    }
  }

  /**
   * Queue one event. Resolves with the id it is sent with (undefined when the server
   * derives it) once queued; with `onFull: "block"` a full queue makes it wait for room, with
   * "drop" the event is counted in `dropped` and the promise resolves with undefined.
   */
  async ingest(event: IngestEvent): Promise<string | undefined> {
    if (this.closed) throw new AAAFError("CLIENT_CLOSED", "ingest() after close()");
    const sent = prepare(event);
    while (this.queue.length >= this.options.maxQueueSize) {
      if (this.options.onFull === "drop") {
        this.dropped += 1;
        this.summary.dropped += 1;
        return undefined;
      }
      const room = new Promise<void>((resolve) => this.waiters.push(resolve));
      void this.pump();
      await room;
      if (this.closed) throw new AAAFError("CLIENT_CLOSED", "ingest() after close()");
    }
    const json = JSON.stringify(sent);
    this.queue.push({ event: sent, json, bytes: encoder.encode(json).length + 1 });
    this.startTimer();
    if (this.queue.length >= this.options.flushAt) void this.pump();
    return typeof sent.id === "string" ? sent.id : undefined;
  }

  /** Events queued, not yet sent. */
  get pending(): number {
    return this.queue.length;
  }

  /** Send everything queued; resolves when all of it is settled, with the summary since the last one. */
  async flush(): Promise<IngestSummary> {
    await new Promise<void>((resolve) => {
      this.idle.push(resolve);
      void this.pump();
    });
    const summary = this.summary;
    this.summary = { accepted: 0, duplicates: 0, rejected: [], dropped: 0 };
    return summary;
  }

  /** Flush, then stop the timer and the exit hook; later `ingest` calls throw `CLIENT_CLOSED`. */
  async close(): Promise<IngestSummary> {
    const summary = await this.flush();
    this.closed = true;
    this.stopTimer();
    if (this.exitHook !== undefined) {
      (globalThis as { process?: NodeJS.Process }).process?.off("beforeExit", this.exitHook);
    }
    for (const wake of this.waiters.splice(0)) wake();
    return summary;
  }

  private startTimer(): void {
    if (this.timer !== undefined || this.closed) return;
    this.timer = setInterval(() => {
      if (this.queue.length > 0) void this.pump();
    }, this.options.flushIntervalMs);
    const handle = this.timer as { unref?: () => void };
    handle.unref?.();
  }

  private stopTimer(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** The one sender: takes chunks off the queue until it is empty, then wakes `flush()`. */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length > 0) {
        const chunk = this.takeChunk();
        this.wakeWaiters();
        try {
          await this.deliver(chunk);
        } catch (error) {
          // never lose a chunk to a bug or an answer of an unexpected shape: report it
          const failure = new AAAFError("CLIENT_ERROR", `The batch could not be handled: ${String(error)}`, { cause: error });
          this.reject(chunk.map((item) => item.event), failure);
        }
      }
    } finally {
      this.pumping = false;
    }
    this.wakeWaiters();
    for (const resolve of this.idle.splice(0)) resolve();
  }

  /** Let as many blocked `ingest` calls go on as the queue has room for. */
  private wakeWaiters(): void {
    const room = this.options.maxQueueSize - this.queue.length;
    for (const wake of this.waiters.splice(0, Math.max(0, room))) wake();
  }

  private takeChunk(): Queued[] {
    const first = this.queue[0] as Queued;
    if (first.bytes + BODY_OVERHEAD > MAX_BODY_BYTES) {
      this.queue.shift();
      this.reject(
        [first.event],
        new AAAFError("PAYLOAD_TOO_LARGE", `The event is ${first.bytes} bytes, over the API's body limit of ${MAX_BODY_BYTES} bytes.`, {
          details: { limit_bytes: MAX_BODY_BYTES, event_bytes: first.bytes },
        }),
      );
      return [];
    }
    let count = 0;
    let bytes = BODY_OVERHEAD;
    for (const item of this.queue) {
      if (count === MAX_BATCH_EVENTS || bytes + item.bytes > MAX_BODY_BYTES) break;
      count += 1;
      bytes += item.bytes;
    }
    return this.queue.splice(0, count);
  }

  private async deliver(chunk: Queued[]): Promise<void> {
    if (chunk.length === 0) return;
    const body = `{"events":[${chunk.map((item) => item.json).join(",")}]}`;
    const events = chunk.map((item) => item.event);
    for (let attempt = 0; ; attempt += 1) {
      let failure: AAAFError;
      try {
        const response = await this.send(body);
        const answer: unknown = await response.json().catch(() => null);
        if (response.ok) {
          this.settle(events, answer);
          return;
        }
        failure = AAAFError.fromBody(response.status, answer, parseRetryAfter(response.headers.get("retry-after")));
        if (!RETRIED.has(response.status)) {
          this.reject(events, failure);
          return;
        }
      } catch (error) {
        failure = new AAAFError("NETWORK_ERROR", `The server could not be reached: ${String(error)}`, { cause: error });
      }
      if (attempt >= this.options.maxRetries) {
        this.reject(events, failure);
        return;
      }
      await sleep(this.delay(attempt, failure.retryAfter));
    }
  }

  private delay(attempt: number, retryAfter: number | null): number {
    if (retryAfter !== null) return retryAfter * 1000;
    const ceiling = Math.min(this.options.maxBackoffMs, this.options.backoffMs * 2 ** attempt);
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }

  private settle(events: SentEvent[], answer: unknown): void {
    const result = answer as Partial<BatchResult> | null;
    this.summary.accepted += result?.accepted ?? 0;
    this.summary.duplicates += result?.duplicates ?? 0;
    for (const item of Array.isArray(result?.errors) ? result.errors : []) {
      const event = events[item.index];
      if (event === undefined) continue;
      this.reject(
        [event],
        new AAAFError(item.code, item.error, { details: { index: item.index, id: item.id, field: item.field } }),
      );
    }
  }

  private reject(events: SentEvent[], error: AAAFError): void {
    for (const event of events) this.summary.rejected.push({ event, error });
    try {
      this.options.onError?.(error, events);
    } catch {
      // a failing callback must not lose the summary
    }
  }
}

function prepare(event: IngestEvent): SentEvent {
  if (!isRecord(event)) throw new TypeError("an event is an object (SCORING.md §1)");
  const timestamp = event.timestamp instanceof Date ? event.timestamp.toISOString() : event.timestamp;
  const sent: SentEvent = { ...event, timestamp };
  if (sent.id === undefined || sent.id === null) {
    delete sent.id;
    const id = contentId(sent);
    if (id !== null) sent.id = id;
  }
  return sent;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
