// AAAFError (issue 18 §2): document 004 §6.4's code, message and details, with the status.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { test } from "node:test";

import { AAAFClient, AAAFError } from "../dist/index.js";
import { BASE_URL, client, newAgent, taskCompleted } from "./helpers.mjs";

async function rejects(promise, check) {
  await assert.rejects(promise, (error) => {
    assert.ok(error instanceof AAAFError, `not an AAAFError: ${error}`);
    check(error);
    return true;
  });
}

test("not found, unauthorized and an invalid event", async () => {
  const sdk = client();
  await rejects(sdk.agents.get(randomUUID()), (error) => {
    assert.equal(error.status, 404);
    assert.equal(error.code, "NOT_FOUND");
    assert.ok(error.message.length > 0);
  });
  const stranger = new AAAFClient({ baseUrl: BASE_URL, apiKey: "aaaf_not-a-key" });
  await rejects(stranger.agents.list(), (error) => {
    assert.equal(error.status, 401);
    assert.equal(error.code, "UNAUTHORIZED");
  });
  const agent = await newAgent(sdk);
  await rejects(sdk.events.create({ ...taskCompleted(agent.id), type: "task_exploded" }), (error) => {
    assert.equal(error.code, "INVALID_EVENT_TYPE");
    assert.equal(error.details.field, "type");
    assert.ok(error.status >= 400 && error.status < 500);
  });
});

test("a server that cannot be reached", async () => {
  const sdk = new AAAFClient({ baseUrl: "http://127.0.0.1:9", apiKey: "k" });
  await rejects(sdk.health(), (error) => {
    assert.equal(error.code, "NETWORK_ERROR");
    assert.equal(error.status, null);
  });
});

test("a real 429 carries RATE_LIMITED and Retry-After; ingest reports it after its retries", async () => {
  const key = process.env.AAAF_LIMITED_API_KEY;
  assert.ok(key, "AAAF_LIMITED_API_KEY names a key of an organization of its own");
  const failures = [];
  const sdk = new AAAFClient({
    baseUrl: BASE_URL,
    apiKey: key,
    ingest: { maxRetries: 0, onError: (error, events) => failures.push([error, events]) },
  });
  const agent = await newAgent(sdk);
  await sdk.organizations.updateConfig(agent.organization_id, { rate_limit_per_minute: 4 });
  let limited = null;
  for (let attempt = 0; attempt < 10 && limited === null; attempt += 1) {
    try {
      await sdk.agents.get(agent.id);
    } catch (error) {
      limited = error;
    }
  }
  assert.ok(limited instanceof AAAFError, "the fifth request in a minute is refused");
  assert.equal(limited.status, 429);
  assert.equal(limited.code, "RATE_LIMITED");
  assert.ok(limited.retryAfter > 0 && limited.retryAfter <= 60, String(limited.retryAfter));

  const event = taskCompleted(agent.id);
  await sdk.ingest(event);
  const summary = await sdk.close();
  assert.equal(summary.accepted, 0);
  assert.equal(summary.rejected.length, 1);
  assert.equal(summary.rejected[0].event.id, event.id);
  assert.equal(summary.rejected[0].error.code, "RATE_LIMITED");
  assert.equal(summary.rejected[0].error.status, 429);
  assert.equal(failures.length, 1);
  assert.equal(failures[0][1][0].id, event.id);
  await rejects(sdk.ingest(event), (error) => assert.equal(error.code, "CLIENT_CLOSED"));
});
