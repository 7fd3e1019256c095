/** `@aaaf/client` — the TypeScript SDK of the AAAF service (issue 18). */
export { AAAFClient, type ClientOptions, type Schemas } from "./client.js";
export { AAAFError, parseRetryAfter } from "./errors.js";
export { canonicalJson, contentId, instantText } from "./event-id.js";
export {
  type BatchResult,
  type IngestEvent,
  type IngestOptions,
  type IngestSummary,
  Ingestor,
  MAX_BATCH_EVENTS,
  MAX_BODY_BYTES,
  type Rejected,
  type SentEvent,
} from "./ingest.js";
export type { components, operations, paths } from "./generated/openapi.js";
