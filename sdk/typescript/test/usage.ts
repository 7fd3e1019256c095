// Type-level checks of the public surface (compiled by `npm test` with `tsc --noEmit`): the
// resources return the generated schemas, and wrong fields or routes do not compile.
import { AAAFClient, AAAFError, type IngestSummary, type Schemas } from "../dist/index.js";

export async function usage(client: AAAFClient): Promise<void> {
  const agent: Schemas["Agent"] = await client.agents.create({ name: "typed", claimed_domains: ["code"] });
  const page: Schemas["Page_Agent_"] = await client.agents.list({ status: "active", limit: 10 });
  const assessment: Schemas["Assessment"] = await client.assessments.get(agent.id);
  const batch: Schemas["BatchResult"] = await client.events.batch([]);
  const summary: IngestSummary = await client.flush();
  const id: string | undefined = await client.ingest({ agent_id: agent.id, type: "task_completed", timestamp: new Date(), data: {} });
  const raw = await client.api.GET("/api/v1/agents/{agent_id}/trust", { params: { path: { agent_id: agent.id } } });
  const code: string = new AAAFError("X", "y").code;
  // @ts-expect-error an agent has no field "nickname"
  await client.agents.create({ name: "typed", nickname: "no" });
  // @ts-expect-error the status filter takes only the four statuses
  await client.agents.list({ status: "sleeping" });
  // @ts-expect-error no such route
  await client.api.GET("/api/v1/nowhere");
  // @ts-expect-error an event needs a type
  await client.ingest({ agent_id: agent.id, timestamp: "", data: {} });
  void [page, assessment, batch, summary, id, raw, code];
}
