// The ingestion helper against the live server (issue 18 §2): the flush summary, ids of
// id-less events as the server derives them (SCORING.md §1), chunking under the batch limits
// (SCORING.md §7), the bounded queue and the timer.
import assert from "node:assert/strict";
import { test } from "node:test";

import { contentId, MAX_BATCH_EVENTS } from "../dist/index.js";
import { client, newAgent, storedEvents, taskCompleted } from "./helpers.mjs";

/** A fetch that counts the batches it carries and the largest body. */
function countingFetch() {
  const seen = { batches: [], maxBytes: 0 };
  const fetchImpl = async (input, init) => {
    if (typeof input === "string" && input.endsWith("/api/v1/events/batch")) {
      const bytes = Buffer.byteLength(init.body);
      seen.maxBytes = Math.max(seen.maxBytes, bytes);
      seen.batches.push(JSON.parse(init.body).events.length);
    }
    return fetch(input, init);
  };
  return { seen, fetchImpl };
}

test("flush reports accepted, duplicates and rejected events with their errors", async () => {
  const errors = [];
  const sdk = client({ ingest: { onError: (error, events) => errors.push({ error, events }) } });
  const agent = await newAgent(sdk);
  const good = [taskCompleted(agent.id), taskCompleted(agent.id), taskCompleted(agent.id)];
  for (const event of good) assert.equal(await sdk.ingest(event), event.id);
  const bad = { ...taskCompleted(agent.id), type: "task_exploded" };
  const unsure = taskCompleted(agent.id, { extra: { time_to_complete_seconds: -5 } });
  await sdk.ingest(bad);
  await sdk.ingest(unsure);
  const first = await sdk.flush();
  assert.equal(first.accepted, 3);
  assert.equal(first.duplicates, 0);
  assert.equal(first.dropped, 0);
  assert.deepEqual(first.rejected.map((item) => item.event.id).sort(), [bad.id, unsure.id].sort());
  const byId = Object.fromEntries(first.rejected.map((item) => [item.event.id, item.error]));
  assert.equal(byId[bad.id].code, "INVALID_EVENT_TYPE");
  assert.equal(byId[bad.id].details.field, "type");
  assert.equal(byId[unsure.id].details.field, "data.time_to_complete_seconds");
  assert.equal(errors.length, 2);

  // a re-sent event is a duplicate, and the next summary counts only what came after
  await sdk.ingest(good[0]);
  await sdk.ingest(taskCompleted(agent.id));
  assert.deepEqual(await sdk.close(), { accepted: 1, duplicates: 1, rejected: [], dropped: 0 });
  assert.equal((await storedEvents(sdk, agent.id)).length, 4);
});

test("an id-less event gets the id the server derives from its content", async () => {
  const sdk = client();
  const agent = await newAgent(sdk);
  // sent by hand without id, in another spelling of the same instant: the server derives the key
  const base = taskCompleted(agent.id, { id: null, extra: { notes: "naïve ☃ \u0001", score: 0.1, big: 1e21 } });
  const instant = new Date(base.timestamp);
  const shifted = new Date(instant.getTime() + 2 * 3_600_000).toISOString().replace("Z", "+02:00");
  const stored = await sdk.events.create({ ...base, timestamp: shifted, agent_id: agent.id.toUpperCase() });
  assert.equal(stored.accepted, 1);
  const [event] = await storedEvents(sdk, agent.id);
  assert.equal(event.key, contentId(base), "the SDK computes the server's id");
  // the same event through the SDK (timestamp as a Date) is that event again, not a new one
  assert.equal(await sdk.ingest({ ...base, timestamp: instant }), event.key);
  assert.deepEqual(await sdk.flush(), { accepted: 0, duplicates: 1, rejected: [], dropped: 0 });
  // an agent given by name: the SDK leaves the id to the server, which keeps it stable
  assert.equal(await sdk.ingest({ ...taskCompleted(agent.id, { id: null }), agent_id: undefined, agent: agent.name }), undefined);
  assert.equal((await sdk.close()).accepted, 1);
});

test("batches hold at most 1 000 events and 1 MiB", async () => {
  const { seen, fetchImpl } = countingFetch();
  const sdk = client({ fetch: fetchImpl, ingest: { maxQueueSize: 5_000, flushIntervalMs: 60_000 } });
  const agent = await newAgent(sdk);
  for (let index = 0; index < 2_500; index += 1) await sdk.ingest(taskCompleted(agent.id));
  const counted = await sdk.flush();
  assert.equal(counted.accepted, 2_500);
  assert.ok(seen.batches.every((size) => size <= MAX_BATCH_EVENTS), String(seen.batches));
  assert.equal(seen.batches.reduce((a, b) => a + b, 0), 2_500);
  assert.equal(seen.batches.length, 3);

  seen.batches.length = 0;
  // text fields hold at most 64 KiB each: ~300 kB events of five 60 kB fields
  const padding = (fields) => Object.fromEntries(Array.from({ length: fields }, (_, i) => [`note_${i}`, "x".repeat(60_000)]));
  for (let index = 0; index < 7; index += 1) await sdk.ingest(taskCompleted(agent.id, { extra: padding(5) }));
  const huge = taskCompleted(agent.id, { extra: padding(18) });
  await sdk.ingest(huge);
  const sized = await sdk.close();
  assert.equal(sized.accepted, 7);
  assert.ok(seen.batches.length >= 3, String(seen.batches));
  assert.ok(seen.maxBytes <= 1_048_576, String(seen.maxBytes));
  assert.equal(sized.rejected.length, 1);
  assert.equal(sized.rejected[0].event.id, huge.id);
  assert.equal(sized.rejected[0].error.code, "PAYLOAD_TOO_LARGE");
  assert.equal((await storedEvents(client(), agent.id)).length, 2_507);
});

test("a full queue drops with a counter, or makes ingest wait", async () => {
  const dropping = client({ ingest: { maxQueueSize: 5, flushAt: 1_000, flushIntervalMs: 60_000, onFull: "drop" } });
  const agent = await newAgent(dropping);
  const ids = [];
  for (let index = 0; index < 8; index += 1) ids.push(await dropping.ingest(taskCompleted(agent.id)));
  assert.equal(ids.filter((id) => id === undefined).length, 3);
  assert.equal(dropping.dropped, 3);
  assert.equal(dropping.pending, 5);
  assert.deepEqual(await dropping.close(), { accepted: 5, duplicates: 0, rejected: [], dropped: 3 });

  const { seen, fetchImpl } = countingFetch();
  let most = 0;
  const blocking = client({ fetch: fetchImpl, ingest: { maxQueueSize: 5, flushAt: 1_000, flushIntervalMs: 60_000 } });
  for (let index = 0; index < 23; index += 1) {
    await blocking.ingest(taskCompleted(agent.id));
    most = Math.max(most, blocking.pending);
  }
  assert.ok(most <= 5, `the queue held ${most}`);
  assert.ok(seen.batches.length >= 4, "a full queue sends what it holds");
  assert.deepEqual(await blocking.close(), { accepted: 23, duplicates: 0, rejected: [], dropped: 0 });
  assert.equal(blocking.dropped, 0);
  assert.equal((await storedEvents(blocking, agent.id)).length, 28);
});

test("the timer sends what is queued without a flush", async () => {
  const sdk = client({ ingest: { flushIntervalMs: 200 } });
  const agent = await newAgent(sdk);
  await sdk.ingest(taskCompleted(agent.id));
  const deadline = Date.now() + 20_000;
  let stored = [];
  while (stored.length === 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    stored = await storedEvents(sdk, agent.id);
  }
  assert.equal(stored.length, 1);
  assert.equal(sdk.pending, 0);
  assert.equal((await sdk.close()).accepted, 1, "the timer's batch is in the next summary");
});

