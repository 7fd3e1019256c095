// Retries of the ingestion helper (issue 18 §2) through a loopback proxy in front of the live
// server: Retry-After is honoured, and a batch whose answer was lost is sent again with the
// same ids, so the server holds each event once.
import assert from "node:assert/strict";
import { test } from "node:test";

import { AAAFClient } from "../dist/index.js";
import { API_KEY, client, newAgent, startProxy, storedEvents, taskCompleted } from "./helpers.mjs";

test("503 then 429 with Retry-After, then through: retried after the delays asked", async () => {
  const proxy = await startProxy([
    { status: 503, retryAfter: 1 },
    { status: 429, retryAfter: 2, code: "RATE_LIMITED" },
  ]);
  try {
    const sdk = new AAAFClient({ baseUrl: proxy.url, apiKey: API_KEY, ingest: { backoffMs: 1 } });
    const agent = await newAgent(client());
    const events = [taskCompleted(agent.id), taskCompleted(agent.id, { id: null })];
    for (const event of events) await sdk.ingest(event);
    const summary = await sdk.close();
    assert.deepEqual(summary, { accepted: 2, duplicates: 0, rejected: [], dropped: 0 });
    const batches = proxy.requests.filter((request) => request.url === "/api/v1/events/batch");
    assert.equal(batches.length, 3);
    assert.ok(batches[1].at - batches[0].at >= 950, `waited ${batches[1].at - batches[0].at} ms of Retry-After: 1`);
    assert.ok(batches[2].at - batches[1].at >= 1950, `waited ${batches[2].at - batches[1].at} ms of Retry-After: 2`);
    assert.equal(new Set(batches.map((request) => request.body)).size, 1, "each retry sends the same events and ids");
    assert.equal((await storedEvents(client(), agent.id)).length, 2);
  } finally {
    await proxy.close();
  }
});

test("an answer lost after the server stored the batch: the retry doubles nothing", async () => {
  const proxy = await startProxy(["lose", "lose", { status: 502 }]);
  try {
    const sdk = new AAAFClient({ baseUrl: proxy.url, apiKey: API_KEY, ingest: { backoffMs: 10 } });
    const agent = await newAgent(client());
    for (let index = 0; index < 50; index += 1) {
      await sdk.ingest(taskCompleted(agent.id, index % 2 ? {} : { id: null }));
    }
    const summary = await sdk.close();
    // the first attempt stored all 50; the retries hear that they are re-sends
    assert.deepEqual(summary, { accepted: 0, duplicates: 50, rejected: [], dropped: 0 });
    assert.equal(proxy.requests.length, 4);
    assert.equal(new Set(proxy.requests.map((request) => request.body)).size, 1);
    const stored = await storedEvents(client(), agent.id);
    assert.equal(stored.length, 50);
    assert.equal(new Set(stored.map((event) => event.key)).size, 50);
  } finally {
    await proxy.close();
  }
});

test("a server that stays away: the events are reported failed after the retries", async () => {
  const failures = [];
  const sdk = new AAAFClient({
    baseUrl: "http://127.0.0.1:9",
    apiKey: API_KEY,
    ingest: { maxRetries: 2, backoffMs: 10, onError: (error, events) => failures.push([error.code, events.length]) },
  });
  const event = taskCompleted("00000000-0000-0000-0000-000000000000");
  await sdk.ingest(event);
  const summary = await sdk.close();
  assert.equal(summary.rejected.length, 1);
  assert.equal(summary.rejected[0].error.code, "NETWORK_ERROR");
  assert.equal(summary.rejected[0].event.id, event.id);
  assert.deepEqual(failures, [["NETWORK_ERROR", 1]]);
});

test("the server away for 10 seconds in the middle of 10 000 events: none lost, none doubled", async () => {
  const proxy = await startProxy();
  try {
    let outage = null;
    const agent = await newAgent(client());
    const sdk = new AAAFClient({
      baseUrl: proxy.url,
      apiKey: API_KEY,
      fetch: async (input, init) => {
        // the server goes away while the second batch is on its way
        if (outage === null && proxy.requests.length === 1) outage = proxy.outage(10_000);
        return fetch(input, init);
      },
    });
    const started = Date.now();
    for (let index = 0; index < 10_000; index += 1) await sdk.ingest(taskCompleted(agent.id, { id: `outage-${index}` }));
    const summary = await sdk.close();
    await outage;
    assert.ok(Date.now() - started >= 10_000, "the outage happened");
    assert.deepEqual(summary.rejected, []);
    assert.equal(summary.accepted + summary.duplicates, 10_000);
    const stored = await storedEvents(client(), agent.id);
    assert.equal(stored.length, 10_000, "each event stored once, whatever was re-sent");
    assert.equal(new Set(stored.map((event) => event.key)).size, 10_000);
  } finally {
    await proxy.close();
  }
});
