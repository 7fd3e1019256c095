// Node: events still queued when the event loop empties are sent (`beforeExit`), and the
// flush timer does not hold the process open (issue 18 §2).
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { test } from "node:test";
import { promisify } from "node:util";

import { client, newAgent, storedEvents } from "./helpers.mjs";

const run = promisify(execFile);
const dist = new URL("../dist/index.js", import.meta.url).href;

test("a script that never flushes loses nothing, and exits at once", async () => {
  const agent = await newAgent();
  const script = `
    import { AAAFClient } from ${JSON.stringify(dist)};
    const sdk = new AAAFClient({ ingest: { flushIntervalMs: 600000 } });
    for (let i = 0; i < 3; i += 1) {
      sdk.ingest({ id: "exit-" + i + "-${randomUUID()}", agent_id: ${JSON.stringify(agent.id)}, type: "task_completed",
        timestamp: new Date().toISOString(),
        data: { task_id: "t" + i, completion_status: "accepted", time_to_complete_seconds: 1, revision_count: 0, errors: [] } });
    }
    console.log("queued", sdk.pending);
  `;
  const started = Date.now();
  const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], {
    env: process.env,
    timeout: 30_000,
  });
  assert.match(stdout, /queued 3/);
  assert.ok(Date.now() - started < 20_000, "the 10-minute timer did not keep the process alive");
  assert.equal((await storedEvents(client(), agent.id)).length, 3);
});
