// Typed resources against the live server (issue 18 §2): agents, events, configuration,
// assessments and the badge they issue.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { test } from "node:test";

import { client, newAgent, storedEvents } from "./helpers.mjs";

function taskEvents(agentId, index) {
  const completed = new Date(Date.now() - (2 + 12 * index) * 3_600_000);
  const assigned = new Date(completed.getTime() - 1_800_000);
  const taskId = `task-${index}`;
  return [
    {
      id: `${taskId}-a`,
      agent_id: agentId,
      type: "task_assigned",
      timestamp: assigned.toISOString(),
      data: { task_id: taskId, complexity_level: 2, domain: index % 2 ? "testing" : "code", assigned_at: assigned.toISOString() },
    },
    {
      id: `${taskId}-c`,
      agent_id: agentId,
      type: "task_completed",
      timestamp: completed.toISOString(),
      data: { task_id: taskId, completion_status: "accepted", time_to_complete_seconds: 1800, revision_count: 0, errors: [] },
    },
  ];
}

test("health, agents and events", async () => {
  const sdk = client();
  assert.equal((await sdk.health()).status, "ok");
  const agent = await newAgent(sdk);
  assert.match(agent.id, /^[0-9a-f-]{36}$/);
  assert.deepEqual(agent.claimed_domains, ["code"]);
  assert.equal((await sdk.agents.get(agent.id)).name, agent.name);
  const renamed = await sdk.agents.update(agent.id, { description: "written by the TypeScript SDK" });
  assert.equal(renamed.description, "written by the TypeScript SDK");
  const listed = await sdk.agents.list({ limit: 1000 });
  assert.ok(listed.items.some((item) => item.id === agent.id));

  const task = taskEvents(agent.id, 0);
  const stored = await sdk.events.create(task[1]);
  assert.deepEqual(stored, { accepted: 1, duplicates: 0, id: "task-0-c" });
  const batch = await sdk.events.batch(task);
  assert.deepEqual([batch.accepted, batch.duplicates, batch.rejected], [1, 1, 0]);
  const events = await storedEvents(sdk, agent.id);
  assert.deepEqual(events.map((event) => event.key).sort(), ["task-0-a", "task-0-c"]);
});

test("configuration, an assessment and its badge", async () => {
  const sdk = client();
  const agent = await newAgent(sdk);
  const orgId = agent.organization_id;
  const config = await sdk.organizations.updateConfig(orgId, { minimum_tasks_performance: 6, minimum_tasks_capability: 6 });
  assert.equal(config.minimum_tasks_performance, 6);
  assert.equal((await sdk.organizations.getConfig(orgId)).minimum_tasks_capability, 6);

  for (let index = 0; index < 8; index += 1) for (const event of taskEvents(agent.id, index)) await sdk.ingest(event);
  const summary = await sdk.flush();
  assert.deepEqual(summary, { accepted: 16, duplicates: 0, rejected: [], dropped: 0 });

  const started = await sdk.assessments.create({ agent_id: agent.id, type: "full" });
  assert.equal(started.agent_id, agent.id);
  let assessment = await sdk.assessments.get(started.id);
  const deadline = Date.now() + 90_000;
  while (["pending", "in_progress"].includes(assessment.status) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    assessment = await sdk.assessments.get(started.id);
  }
  assert.equal(assessment.status, "completed", JSON.stringify(assessment));
  assert.equal(assessment.performance?.dimensions?.task_completion_rate?.sample_size, 8);
  const listed = await sdk.assessments.list({ agent_id: agent.id });
  assert.deepEqual(listed.items.map((item) => item.id), [started.id]);

  // the badge is issued a moment after the assessment completes
  let verified = null;
  while (verified === null && Date.now() < deadline) {
    verified = await sdk.badges.verify(started.id).catch((error) => {
      if (error.code !== "NOT_FOUND") throw error;
      return null;
    });
    if (verified === null) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const badge = await sdk.badges.get(started.id);
  assert.equal(badge.assessment_id, started.id);
  assert.equal(verified.valid, true, JSON.stringify(verified));
  await sdk.close();
});

test("the raw typed client reaches every route", async () => {
  const sdk = client();
  const { data, response } = await sdk.api.GET("/api/v1/keys");
  assert.equal(response.status, 200);
  assert.ok(Array.isArray(data.items) || Array.isArray(data), JSON.stringify(data));
  const missing = randomUUID();
  const answer = await sdk.api.GET("/api/v1/agents/{agent_id}", { params: { path: { agent_id: missing } } });
  assert.equal(answer.response.status, 404);
  assert.equal(answer.error.error.code, "NOT_FOUND");
});
