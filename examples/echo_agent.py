"""The example agent of docs/agent-protocol.md (kept identical by tests/stress/test_protocol_doc.py)."""

import json
import re
import sys


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def call(tool, **arguments):
    call.count = getattr(call, "count", 0) + 1
    send({"type": "tool_call", "id": f"c{call.count}", "tool": tool, "arguments": arguments})
    return json.loads(sys.stdin.readline())


task = json.loads(sys.stdin.readline())
tools = {tool["name"] for tool in task["tools"]}
text = ""
for name in task["files"]:
    if "file_read" in task["checkpoints"]:
        call("request_approval", action="file_read")
    if "file_read" in tools:
        text += call("file_read", path=name)["output"]
numbers = re.findall(r"(\d+) days", text) or re.findall(r"\d+", text)
if "submit" in task["checkpoints"]:
    call("request_approval", action="submit")
send({"type": "final", "answer": numbers[0] if numbers else "I don't know"})
