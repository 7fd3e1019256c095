/**
 * `AAAFClient` (issue 18 §2): typed resources over the paths generated from the service's
 * committed `openapi.json` (`src/generated/openapi.ts`, `npm run generate`), the ingestion
 * helper (`ingest` / `flush` / `close`, see `ingest.ts`) and one error type, `AAAFError`.
 *
 * Every route of the API is reachable, typed, through `client.api` (an openapi-fetch client);
 * the resource objects (`agents`, `events`, `assessments`, `badges`, …) wrap the common ones
 * and throw `AAAFError` with document 004 §6.4's code, message and details on a non-2xx answer.
 * Only the ingestion helper retries: a resource call that fails throws (a 429 carries
 * `retryAfter`). `baseUrl` is the server root (SCORING.md §7).
 */
import createClient, { type Client } from "openapi-fetch";

import { AAAFError, parseRetryAfter } from "./errors.js";
import type { components, paths } from "./generated/openapi.js";
import { type IngestEvent, type IngestOptions, type IngestSummary, Ingestor } from "./ingest.js";

export type Schemas = components["schemas"];
type Query<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  parameters: { query?: infer Q };
}
  ? NonNullable<Q>
  : never;

export interface ClientOptions {
  /** The server root, e.g. `http://127.0.0.1:8000` (default: `AAAF_BASE_URL` in Node). */
  baseUrl?: string;
  /** An API key, sent as a Bearer token (default: `AAAF_API_KEY` in Node). */
  apiKey?: string;
  /** A `fetch` to use instead of the global one. */
  fetch?: typeof globalThis.fetch;
  /** Options of the ingestion helper. */
  ingest?: IngestOptions;
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The data of a 2xx answer, else the answer's `AAAFError`. */
async function unwrap<T>(call: Promise<Answer<T>>): Promise<T> {
  let answer: Answer<T>;
  try {
    answer = await call;
  } catch (error) {
    throw new AAAFError("NETWORK_ERROR", `The server could not be reached: ${String(error)}`, { cause: error });
  }
  const { response } = answer;
  if (!response.ok) {
    throw AAAFError.fromBody(response.status, answer.error, parseRetryAfter(response.headers.get("retry-after")));
  }
  return answer.data as T;
}

function environment(name: string): string | undefined {
  const proc = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  return proc?.env?.[name];
}

export class AAAFClient {
  /** Every route, typed from `openapi.json` (openapi-fetch: `client.api.GET("/api/v1/…", …)`). */
  readonly api: Client<paths>;
  readonly baseUrl: string;
  private readonly ingestor: Ingestor;

  constructor(options: ClientOptions = {}) {
    const baseUrl = options.baseUrl ?? environment("AAAF_BASE_URL");
    if (!baseUrl) throw new AAAFError("INVALID_REQUEST", "baseUrl is required (or AAAF_BASE_URL)");
    this.baseUrl = baseUrl.replace(/\/+$/, "");
    const apiKey = options.apiKey ?? environment("AAAF_API_KEY");
    const headers: Record<string, string> = apiKey ? { Authorization: `Bearer ${apiKey}` } : {};
    const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.api = createClient<paths>({
      baseUrl: this.baseUrl,
      headers,
      fetch: (request: Request) => fetchImpl(request),
    });
    const batchUrl = `${this.baseUrl}/api/v1/events/batch`;
    this.ingestor = new Ingestor(
      (body) =>
        fetchImpl(batchUrl, { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body }),
      options.ingest,
    );
  }

  // ingestion ---------------------------------------------------------------------------------
  /** Queue an event (see `Ingestor.ingest`); resolves with its id once queued. */
  ingest(event: IngestEvent): Promise<string | undefined> {
    return this.ingestor.ingest(event);
  }

  /** Send everything queued; resolves when all of it is acknowledged or reported failed. */
  flush(): Promise<IngestSummary> {
    return this.ingestor.flush();
  }

  /** Flush and stop; the client's resource calls keep working. */
  close(): Promise<IngestSummary> {
    return this.ingestor.close();
  }

  /** Events queued, not yet sent. */
  get pending(): number {
    return this.ingestor.pending;
  }

  /** Events dropped because the queue was full (`onFull: "drop"`). */
  get dropped(): number {
    return this.ingestor.dropped;
  }

  health(): Promise<Schemas["Health"]> {
    return unwrap(this.api.GET("/health"));
  }

  // resources ---------------------------------------------------------------------------------
  readonly organizations = {
    get: (orgId: string) =>
      unwrap(this.api.GET("/api/v1/organizations/{org_id}", { params: { path: { org_id: orgId } } })),
    getConfig: (orgId: string) =>
      unwrap(this.api.GET("/api/v1/organizations/{org_id}/config", { params: { path: { org_id: orgId } } })),
    updateConfig: (orgId: string, body: Record<string, unknown>) =>
      unwrap(
        this.api.PATCH("/api/v1/organizations/{org_id}/config", { params: { path: { org_id: orgId } }, body }),
      ),
  };

  readonly agents = {
    create: (body: Schemas["AgentCreate"]) => unwrap(this.api.POST("/api/v1/agents", { body })),
    list: (query: Query<"/api/v1/agents", "get"> = {}) =>
      unwrap(this.api.GET("/api/v1/agents", { params: { query } })),
    get: (agentId: string) =>
      unwrap(this.api.GET("/api/v1/agents/{agent_id}", { params: { path: { agent_id: agentId } } })),
    update: (agentId: string, body: Schemas["AgentPatch"]) =>
      unwrap(this.api.PATCH("/api/v1/agents/{agent_id}", { params: { path: { agent_id: agentId } }, body })),
    archive: (agentId: string) =>
      unwrap(this.api.DELETE("/api/v1/agents/{agent_id}", { params: { path: { agent_id: agentId } } })),
  };

  readonly events = {
    /** One event, sent at once (no queue, no retry); an invalid one throws its `AAAFError`. */
    create: (event: Record<string, unknown>) => unwrap(this.api.POST("/api/v1/events", { body: event })),
    /** Up to 1 000 events in one request (no queue, no retry): the batch answer. */
    batch: (events: unknown[]) => unwrap(this.api.POST("/api/v1/events/batch", { body: { events } })),
    list: (query: Query<"/api/v1/events", "get">) => unwrap(this.api.GET("/api/v1/events", { params: { query } })),
  };

  readonly assessments = {
    create: (body: Partial<Schemas["AssessmentCreate"]> & { agent_id: string }) =>
      unwrap(this.api.POST("/api/v1/assessments", { body: body as Schemas["AssessmentCreate"] })),
    list: (query: Query<"/api/v1/assessments", "get"> = {}) =>
      unwrap(this.api.GET("/api/v1/assessments", { params: { query } })),
    get: (assessmentId: string) =>
      unwrap(
        this.api.GET("/api/v1/assessments/{assessment_id}", { params: { path: { assessment_id: assessmentId } } }),
      ),
  };

  readonly badges = {
    get: (assessmentId: string) =>
      unwrap(this.api.GET("/api/v1/badges/{assessment_id}", { params: { path: { assessment_id: assessmentId } } })),
    verify: (assessmentId: string) =>
      unwrap(
        this.api.GET("/api/v1/badges/{assessment_id}/verify", { params: { path: { assessment_id: assessmentId } } }),
      ),
    revoke: (assessmentId: string, body: Schemas["Revocation"]) =>
      unwrap(
        this.api.POST("/api/v1/badges/{assessment_id}/revoke", {
          params: { path: { assessment_id: assessmentId } },
          body,
        }),
      ),
  };

  readonly keys = {
    create: (body: Schemas["KeyCreate"]) => unwrap(this.api.POST("/api/v1/keys", { body })),
    list: () => unwrap(this.api.GET("/api/v1/keys")),
    revoke: (keyId: string) =>
      unwrap(this.api.DELETE("/api/v1/keys/{key_id}", { params: { path: { key_id: keyId } } })),
  };

  readonly trust = {
    get: (agentId: string) =>
      unwrap(this.api.GET("/api/v1/agents/{agent_id}/trust", { params: { path: { agent_id: agentId } } })),
  };
}
