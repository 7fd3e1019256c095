// The SDK cannot drift from the API (issue 18 §2): the committed types are exactly what the
// pinned openapi-typescript makes of the repository's committed openapi.json.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const root = fileURLToPath(new URL("..", import.meta.url));

test("src/generated/openapi.ts is generated from openapi.json", async () => {
  const scratch = await mkdtemp(join(tmpdir(), "aaaf-sdk-"));
  try {
    const fresh = join(scratch, "openapi.ts");
    await run(process.execPath, [join(root, "node_modules/openapi-typescript/bin/cli.js"), "../../openapi.json", "--output", fresh], {
      cwd: root,
    });
    const committed = await readFile(join(root, "src/generated/openapi.ts"), "utf8");
    assert.ok(committed.includes('"/api/v1/events/batch"'));
    assert.equal(committed, await readFile(fresh, "utf8"), "stale: run `make regen` and commit the result");
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
});
