#!/usr/bin/env node
// A Node agent instrumented with the TypeScript SDK (issue 18 §3; document 004 §5.2 step 2).
//
//   make install                      # builds sdk/typescript (npm ci && npm run build)
//   AAAF_BASE_URL=http://127.0.0.1:8000 AAAF_API_KEY=ak_... node examples/node_agent.mjs [tasks]
//
// It works through a few tasks, emitting task_assigned, tool_invoked and task_completed events
// through `client.ingest` (queued, batched, retried), and prints the flush summary as JSON.
// AAAF_AGENT_ID names an enrolled agent; without it the script enrols one.
// In your own project: `npm install <path to this repo>/sdk/typescript`, then
// `import { AAAFClient } from "@aaaf/client";`.
import { randomUUID } from "node:crypto";

import { AAAFClient } from "../sdk/typescript/dist/index.js";

const TOOLS = ["search_code", "run_tests", "edit_file"];

/** The agent's own work: here a stand-in that takes a little time and uses some tools. */
async function work(task) {
  const used = [];
  for (const tool of TOOLS.slice(0, 1 + (task.index % TOOLS.length))) {
    const started = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 5));
    used.push({ tool, success: !(task.index === 1 && tool === "run_tests"), ms: Date.now() - started });
  }
  return used;
}

const client = new AAAFClient({
  // baseUrl and apiKey default to AAAF_BASE_URL and AAAF_API_KEY
  ingest: { onError: (error, events) => console.error(`rejected ${events.length} event(s): ${error.code} ${error.message}`) },
});

const agentId =
  process.env.AAAF_AGENT_ID ??
  (await client.agents.create({ name: `node-agent-${randomUUID().slice(0, 8)}`, claimed_domains: ["code"], tools: TOOLS })).id;
const run = randomUUID().slice(0, 8);
const tasks = Number(process.argv[2] ?? 3);

for (let index = 0; index < tasks; index += 1) {
  const task = { index, id: `node-${run}-${index}`, domain: index % 2 ? "testing" : "code" };
  const assignedAt = new Date();
  // ingest() queues the event; awaiting it waits only when the bounded queue is full
  await client.ingest({
    id: `${task.id}-assigned`,
    agent_id: agentId,
    type: "task_assigned",
    timestamp: assignedAt,
    data: { task_id: task.id, complexity_level: 2, domain: task.domain, assigned_at: assignedAt.toISOString() },
  });
  const used = await work(task);
  for (const [step, call] of used.entries()) {
    await client.ingest({
      id: `${task.id}-tool-${step}`,
      agent_id: agentId,
      type: "tool_invoked",
      timestamp: new Date(),
      data: { task_id: task.id, tool: call.tool, success: call.success, unnecessary: false, error_recovered: false },
    });
  }
  await client.ingest({
    id: `${task.id}-completed`,
    agent_id: agentId,
    type: "task_completed",
    timestamp: new Date(),
    data: {
      task_id: task.id,
      completion_status: "accepted",
      time_to_complete_seconds: (Date.now() - assignedAt.getTime()) / 1000,
      revision_count: used.every((call) => call.success) ? 0 : 1,
      errors: [],
    },
  });
}

// close() sends what is still queued and resolves when the server acknowledged all of it
const summary = await client.close();
console.log(JSON.stringify({ agent_id: agentId, run, summary }));
process.exitCode = summary.rejected.length === 0 ? 0 : 1;
