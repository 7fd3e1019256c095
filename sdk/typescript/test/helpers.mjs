// Shared by the node tests (issue 18 §2): the live server named by AAAF_BASE_URL and
// AAAF_API_KEY (tests/sdk_typescript/test_node_suite.py starts it), event factories and a
// loopback proxy that misbehaves on purpose (503/429 with Retry-After, a lost answer).
import http from "node:http";
import { randomUUID } from "node:crypto";

import { AAAFClient } from "../dist/index.js";

export const BASE_URL = process.env.AAAF_BASE_URL;
export const API_KEY = process.env.AAAF_API_KEY;
if (!BASE_URL || !API_KEY) {
  throw new Error("AAAF_BASE_URL and AAAF_API_KEY must name a live aaaf serve and a key of an organization");
}

export function client(options = {}) {
  return new AAAFClient({ baseUrl: BASE_URL, apiKey: API_KEY, ...options });
}

export async function newAgent(sdk = client()) {
  return sdk.agents.create({ name: `ts-agent-${randomUUID().slice(0, 8)}`, claimed_domains: ["code"] });
}

/** A valid task_completed event of `agentId` (SCORING.md §1), id given unless `id: null`. */
export function taskCompleted(agentId, { id = randomUUID(), taskId = `task-${randomUUID().slice(0, 8)}`, minutesAgo = 5, extra = {} } = {}) {
  const event = {
    agent_id: agentId,
    type: "task_completed",
    timestamp: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
    data: {
      task_id: taskId,
      completion_status: "accepted",
      time_to_complete_seconds: 120,
      revision_count: 0,
      errors: [],
      ...extra,
    },
  };
  if (id !== null) event.id = id;
  return event;
}

/** Every stored event of an agent (all pages). */
export async function storedEvents(sdk, agentId) {
  const items = [];
  let cursor = undefined;
  for (;;) {
    const page = await sdk.events.list({ agent_id: agentId, limit: 1000, ...(cursor ? { cursor } : {}) });
    items.push(...page.items);
    if (!page.next_cursor) return items;
    cursor = page.next_cursor;
  }
}

/**
 * A loopback proxy in front of the live server. `plan` is a list of what to do with the next
 * requests: {status, retryAfter} answers that status without forwarding; "lose" forwards the
 * request, lets the server answer, and destroys the connection before the client hears it;
 * once the plan is used up, requests pass through. `requests` records each body and time.
 */
export async function startProxy(plan = []) {
  const upstream = new URL(BASE_URL);
  const requests = [];
  const server = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = Buffer.concat(chunks);
    requests.push({ at: Date.now(), method: req.method, url: req.url, body: body.toString() });
    const step = plan.shift();
    if (step && typeof step === "object") {
      const headers = { "content-type": "application/json" };
      if (step.retryAfter !== undefined) headers["retry-after"] = String(step.retryAfter);
      res.writeHead(step.status, headers);
      res.end(JSON.stringify({ error: { code: step.code ?? "SERVICE_UNAVAILABLE", message: "proxy says no", details: {} } }));
      return;
    }
    const headers = { ...req.headers, host: upstream.host };
    delete headers["content-length"];
    const answer = await fetch(new URL(req.url, upstream), {
      method: req.method,
      headers,
      body: ["GET", "HEAD"].includes(req.method) ? undefined : body,
    });
    const payload = Buffer.from(await answer.arrayBuffer());
    if (step === "lose") {
      req.socket.destroy();
      return;
    }
    const out = {};
    answer.headers.forEach((value, name) => {
      if (!["content-length", "transfer-encoding", "connection", "content-encoding"].includes(name)) out[name] = value;
    });
    res.writeHead(answer.status, out);
    res.end(payload);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    /** Stop listening and cut every connection (the server is down) for `ms`, then listen again. */
    outage: async (ms) => {
      await new Promise((resolve) => {
        server.close(resolve);
        server.closeAllConnections();
      });
      await new Promise((resolve) => setTimeout(resolve, ms));
      await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
    },
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }),
  };
}
