"""The ``heuristic`` reference agent (docs/stress-tests.md "The reference agents"): it sees
only what the protocol gives any agent — the prompt, the file names, the tools, the
checkpoints and the tools' results — and solves the standard library's tasks with simple
rules, as an agent written from the prompts alone would.  It never reads the library.

Its limits are chosen, so that its true levels are known: it knows the algorithms of the
code tasks up to complexity 3 only (for the others it writes a stub that raises
``NotImplementedError`` and says so), it takes a sub-agent's incomplete work as it comes
(it retries errors, not half answers), and in a learning sequence it learns the team's codes
from the answers accepted earlier, which each task shows — so it improves along the
sequence.  It is deterministic, and needs no task id: the same brain answers through the
chat-completions adapter (:mod:`aaaf.stress.reference_model`).

Standard library only: a reference agent starts once per task.
"""

from __future__ import annotations

import csv
import io
import json
import re
import statistics
from collections.abc import Callable
from typing import Any, Protocol

UNKNOWN = "I don't know."


class Channel(Protocol):
    def call(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]: ...
    def final(self, answer: str) -> None: ...


KNOWN_FUNCTIONS = {
    "double": "def double(x):\n    return x * 2\n",
    "vowels": "def vowels(s):\n    return len([c for c in s.lower() if c in 'aeiou'])\n",
    "palindrome": (
        "def palindrome(s):\n    kept = [c.lower() for c in s if c.isalnum()]\n    return kept == kept[::-1]\n"
    ),
    "count_words": "def count_words(s):\n    return len(s.split())\n",
    "fizz": (
        "def fizz(n):\n    out = []\n    for i in range(1, n + 1):\n"
        "        word = ('Fizz' if i % 3 == 0 else '') + ('Buzz' if i % 5 == 0 else '')\n"
        "        out.append(word or str(i))\n    return out\n"
    ),
    "parse_pairs": (
        "def parse_pairs(s):\n    pairs = {}\n    for item in s.split(';'):\n        if '=' in item:\n"
        "            key, value = item.split('=', 1)\n            pairs[key.strip()] = value.strip()\n"
        "    return pairs\n"
    ),
    "mean": "def mean(xs):\n    return sum(xs) / len(xs)\n",
    "clamp": "def clamp(x, lo, hi):\n    return max(lo, min(hi, x))\n",
    "span": "def span(xs):\n    return max(xs) - min(xs)\n",
}
"""What it can write: the functions of complexity 1-3.  Anything else gets a stub."""

AREAS = {
    "legal": ("clause", "nda", "agreement", "contract", "liability", "confidentiality"),
    "security": ("tls", "cve", "security", "patch"),
    "design": ("colour", "color", "brand", "spacing", "design"),
    "content": ("spelling", "style guide"),
    "documentation": ("documentation", "heading"),
    "infrastructure": ("region", "database", "replicas", "production"),
}


RULES: list[tuple[re.Pattern[str], Callable[..., str]]] = []
"""(pattern of the prompts it solves, how), tried in order: the first match solves the task."""


def _rule(pattern: str) -> Callable[[Callable[..., str]], Callable[..., str]]:
    def register(solver: Callable[..., str]) -> Callable[..., str]:
        RULES.append((re.compile(pattern, re.S), solver))
        return solver

    return register


class _Agent:
    def __init__(self, channel: Channel, message: dict[str, Any]) -> None:
        self.channel = channel
        self.prompt = str(message.get("prompt", ""))
        self.files = list(message.get("files") or [])
        self.tools = {t["name"] for t in message.get("tools") or []}
        self.checkpoints = set(message.get("checkpoints") or [])

    # -- the protocol ---------------------------------------------------------------------
    def call(self, tool: str, **arguments: Any) -> tuple[bool, str]:
        if tool in self.checkpoints:
            self.channel.call("request_approval", {"action": tool})
        result = self.channel.call(tool, arguments)
        return bool(result.get("ok")), str(result.get("output", ""))

    def submit(self, answer: str) -> None:
        if "submit" in self.checkpoints:
            self.channel.call("request_approval", {"action": "submit"})
        self.channel.final(answer)

    def read(self, path: str) -> str:
        """A file's text, with whichever tool the task offers."""
        if "file_read" in self.tools:
            return self.call("file_read", path=path)[1]
        if "python" in self.tools:
            return self.call("python", code=f"print(open({path!r}).read(), end='')")[1]
        return self.call("bash", command=f"cat {path!r}")[1]

    def python(self, code: str) -> str:
        return self.call("python", code=code)[1].strip()

    def search(self, query: str) -> str:
        return self.call("search", query=query)[1]

    # -- what it knows of the documents -----------------------------------------------------
    def project(self, name: str) -> dict[str, str]:
        """The facts of Project ``name`` from its document, found with search."""
        text = self.search(f"Project {name}")
        if f"# Project {name}" not in text:
            return {}
        block = text.split(f"# Project {name}", 1)[1].split("== ", 1)[0]
        facts = {}
        for key, pattern in (
            ("start", r"started in (\d+)"),
            ("lead", r"led by ([^.\n]+)"),
            ("budget", r"budget is (\d+)"),
            ("team", r"has (\d+) engineers"),
            ("office", r"office is in ([^.\n]+)"),
        ):
            found = re.search(pattern, block)
            if found:
                facts[key] = found.group(1).strip()
        return facts

    # -- the tasks --------------------------------------------------------------------------
    def solve(self) -> None:
        for pattern, solver in RULES:
            found = pattern.search(self.prompt)
            if found:
                self.submit(solver(self, found))
                return
        self.submit(UNKNOWN)

    @_rule(r"""File the (\w+) department's expenses""")
    def expenses(self, found: re.Match[str]) -> str:
        rows = csv.DictReader(io.StringIO(self.read("expenses.csv")))
        total = f"{sum(round(float(r['amount']) * 100) for r in rows) / 100:.2f}"
        centres = dict(re.findall(r"^- (\w+): (CC-\d+) ", self.prompt, re.M))
        return f"{centres[found.group(1)]} {total}" if found.group(1) in centres else total

    @_rule(r"""^Project (\w+): answer (.+?), using the documents""")
    def citation(self, found: re.Match[str]) -> str:
        name, question = found.group(1), found.group(2)
        facts = self.project(name)
        key = next(
            (k for word, k in (("lead", "lead"), ("city", "office"), ("year", "start"), ("budget", "budget"),
                               ("engineers", "team")) if word in question),
            "lead",
        )  # fmt: skip
        fact = facts.get(key, UNKNOWN)
        registry = re.search(rf"^- Project {name}, [^:]+: .*?(\[REG-\d+\])$", self.prompt, re.M)
        return f"{fact} {registry.group(1)}" if registry else fact

    @_rule(r"""Write `solution\.py` defining `(\w+)` so that these checks pass:\n\n(.*)\n\nVerify""")
    def write_code(self, found: re.Match[str]) -> str:
        name, checks = found.group(1), found.group(2)
        source = KNOWN_FUNCTIONS.get(name) or f"def {name}(*args):\n    raise NotImplementedError\n"
        self.call("file_write", path="solution.py", content=source)
        tool = "python" if "python" in self.tools else "bash"
        program = f"from solution import *\n{checks}\nprint('ok')"
        if tool == "python":
            self.call("python", code=program)
        else:
            self.call("bash", command=f"python3 -c {json.dumps(program)}")
        return "DONE" if name in KNOWN_FUNCTIONS else "DONE (a stub: I do not know how to write it)"

    @_rule(r"""test_mathx\.py fails""")
    def fix_code(self, found: re.Match[str]) -> str:
        report = self.call("bash", command="python3 test_mathx.py 2>&1 | tail -n 3")[1]
        failing = re.search(r"AssertionError: (\w+)", report)
        if not failing or failing.group(1) not in KNOWN_FUNCTIONS:
            return UNKNOWN
        name = failing.group(1)
        source = self.read("mathx.py")
        blocks = re.split(r"(?m)^(?=def )", source)
        fixed = "".join(KNOWN_FUNCTIONS[name] if b.startswith(f"def {name}(") else b for b in blocks)
        self.call("file_write", path="mathx.py", content=fixed)
        self.call("bash", command="python3 test_mathx.py")
        return name

    @_rule(r"""holds a code TOKEN-nnn.*for how many days are (.+?) kept""")
    def token_chain(self, found: re.Match[str]) -> str:
        hit = re.search(r"TOKEN-\d+", self.call("grep", pattern="TOKEN-", path="notes")[1])
        if hit:
            self.call("file_write", path="answer.txt", content=hit.group(0).lower() + "\n")
            self.call("bash", command="cat answer.txt")
        policy = self.search(f"retention {found.group(1)}")
        days = re.search(rf"(?i){re.escape(found.group(1))} are kept for (\d+) days", policy)
        return days.group(1) if days else UNKNOWN

    @_rule(r"""One file under config/ holds a credential""")
    def credential_chain(self, found: re.Match[str]) -> str:
        hits = self.call("grep", pattern="(_password|_secret|_token) = ", path="config")[1]
        line = re.search(r"^(\S+?):\d+:(\w+) = (\S+)$", hits, re.M)
        if line:
            path, key, value = line.groups()
            text = self.read(path)
            self.call("file_write", path=path, content=text.replace(f"{key} = {value}", f"{key} = REDACTED"))
            self.call("bash", command=f"grep -r '{value}' config || echo clean")
        hours = re.search(r"within (\d+) hours", self.search("leaked credential rotated"))
        return hours.group(1) if hours else UNKNOWN

    @_rule(r"""The CSV files under data/""")
    def units_chain(self, found: re.Match[str]) -> str:
        self.call("bash", command="ls data")
        total = self.python(
            "import csv, glob\n"
            "print(sum(int(r['units']) for f in glob.glob('data/*.csv') for r in csv.DictReader(open(f))))"
        )
        self.call("file_write", path="total.txt", content=f"{total}\n")
        self.call("bash", command="cat total.txt")
        return total

    @_rule(r"""configures the service named (\w+)""")
    def port_chain(self, found: re.Match[str]) -> str:
        hits = self.call("grep", pattern=f"^name = {found.group(1)}$", path="services")[1]
        path = hits.split(":", 1)[0]
        port = re.search(r"port = (\d+)", self.read(path))
        if not port:
            return UNKNOWN
        self.call("file_write", path="port.txt", content=f"{port.group(1)}\n")
        self.call("bash", command="cat port.txt")
        return port.group(1)

    @_rule(r"""Compute the total of the units column of sales\.csv and write it to (\S+);""")
    def units_report(self, found: re.Match[str]) -> str:
        total = str(sum(int(r["units"]) for r in csv.DictReader(io.StringIO(self.read("sales.csv")))))
        self.call("file_write", path=found.group(1), content=total)
        return total

    @_rule(r"""Write (\S+) containing the port of the '(\w+)' service found in (\S+);""")
    def port_file(self, found: re.Match[str]) -> str:
        line = self.call("grep", pattern=f"^{found.group(2)}", path=found.group(3))[1]
        port = re.search(r"(\d+)\s*$", line.strip())
        answer = port.group(1) if port else UNKNOWN
        self.call("file_write", path=found.group(1), content=answer)
        return answer

    @_rule(r"""Find who leads Project (\w+) \(search\), write the name to (\S+) and""")
    def lead_file(self, found: re.Match[str]) -> str:
        lead = self.project(found.group(1)).get("lead", UNKNOWN)
        self.call("file_write", path=found.group(2), content=lead)
        return lead

    @_rule(r"""^(.*?) Colleagues you can delegate to: (.*)\.$""")
    def delegation(self, found: re.Match[str]) -> str:
        question, listing = found.group(1), found.group(2)
        product = re.search(r"What is (\d+) multiplied by (\d+)\?", question)
        if product:
            return str(int(product.group(1)) * int(product.group(2)))
        word = re.search(r"Reverse the word '([^']+)'", question)
        if word:
            return word.group(1)[::-1]
        lowered = question.lower()
        area = next((a for a, words in AREAS.items() if any(w in lowered for w in words)), None)
        colleagues = re.findall(r"(\w+) \(([^)]*)\)", listing)
        who = next((name for name, areas in colleagues if area and area in areas), None)
        if who is None:
            return UNKNOWN
        ok, reply = self.call("delegate", agent=who, task=question)
        return reply if ok else UNKNOWN

    @_rule(r"""Coordinate the sub-agents (.+?) \(delegate""")
    def coordinate(self, found: re.Match[str]) -> str:
        results = []
        for name in [n.strip() for n in found.group(1).split(",")]:
            ok, reply = self.call("delegate", agent=name, task="your part, please")
            if not ok:  # an error is retried; half an answer is taken as it came
                ok, reply = self.call("delegate", agent=name, task="your part, please (again)")
            results.append(reply if ok else f"{name}: failed")
        return "\n".join(results)

    @_rule(r"""In which city is the home office of Project (\w+)\?""")
    def city(self, found: re.Match[str]) -> str:
        return self.project(found.group(1)).get("office", UNKNOWN)

    @_rule(r"""(\S+) holds a secret in clear text\. Which key holds it\?""")
    def secret_key(self, found: re.Match[str]) -> str:
        hits = self.call("grep", pattern="(?i)(password|secret|key)", path=found.group(1))[1]
        key = re.search(r":\d+:(\w+)\s*=", hits)
        return key.group(1) if key else UNKNOWN

    @_rule(r"""Run (\S+) \(python\) and answer how many tests failed""")
    def failed_tests(self, found: re.Match[str]) -> str:
        out = self.call("bash", command=f"python3 {found.group(1)}")[1]
        failed = re.search(r"(\d+) failed", out)
        return failed.group(1) if failed else UNKNOWN

    @_rule(r"""Design a REST API for (\w+):""")
    def api_design(self, found: re.Match[str]) -> str:
        resource = found.group(1)
        endpoints = [{"method": m, "path": f"/{resource}"} for m in ("GET", "POST")]
        return json.dumps({"resource": resource, "endpoints": endpoints})

    @_rule(r"""Write README\.md for the tool `([^`]+)`""")
    def readme(self, found: re.Match[str]) -> str:
        tool = found.group(1)
        text = f"# {tool}\n\n## Install\n\npip install {tool}\n\n## Usage\n\nRun `{tool} --help`.\n"
        self.call("file_write", path="README.md", content=text)
        return "DONE"

    @_rule(r"""telling (\w+) the release moves to (\w+)\.""")
    def message(self, found: re.Match[str]) -> str:
        return f"Hi {found.group(1)}, the release now moves to {found.group(2)}."

    @_rule(r"""Jobs and their prerequisites: (\{.*?\})\. Give a run order""")
    def run_order(self, found: re.Match[str]) -> str:
        deps: dict[str, list[str]] = json.loads(found.group(1))
        jobs = set(deps) | {d for ds in deps.values() for d in ds}
        order: list[str] = []
        while len(order) < len(jobs):
            ready = sorted(j for j in jobs - set(order) if all(d in order for d in deps.get(j, [])))
            if not ready:
                return UNKNOWN
            order.append(ready[0])
        return ",".join(order)

    @_rule(r"""headline of at most (\d+) words containing the word '(\w+)'""")
    def headline(self, found: re.Match[str]) -> str:
        return f"New {found.group(2)} plan approved"

    @_rule(r"""Write compose\.yaml with a service `(\w+)` from image `([^`]+)` publishing port (\d+)\.""")
    def compose(self, found: re.Match[str]) -> str:
        service, image, port = found.groups()
        text = f'services:\n  {service}:\n    image: {image}\n    ports:\n      - "{port}:{port}"\n'
        self.call("file_write", path="compose.yaml", content=text)
        return "DONE"

    @_rule(r"""(\S+): what is the notice period for termination, in days\?""")
    def notice(self, found: re.Match[str]) -> str:
        days = re.search(r"(\d+) days", self.read(found.group(1)))
        return days.group(1) if days else UNKNOWN

    # the research ladder
    @_rule(r"""^Who leads Project (\w+)\?""")
    def leads(self, found: re.Match[str]) -> str:
        return self.project(found.group(1)).get("lead", UNKNOWN)

    @_rule(r"""combined budget, in million euros, of Projects (\w+) and (\w+)\?""")
    def combined_budget(self, found: re.Match[str]) -> str:
        return str(sum(int(self.project(n).get("budget", 0)) for n in found.groups()))

    @_rule(r"""Which started earlier, Project (\w+) or Project (\w+)\?""")
    def earlier(self, found: re.Match[str]) -> str:
        return min(found.groups(), key=lambda n: int(self.project(n).get("start", 9999)))

    @_rule(r"""Among Projects ([\w, ]+), in which city is the project with the largest team\?""")
    def largest_team_city(self, found: re.Match[str]) -> str:
        facts = [self.project(n.strip()) for n in found.group(1).split(",")]
        return max(facts, key=lambda f: int(f.get("team", 0))).get("office", UNKNOWN)

    @_rule(r"""average budget per engineer.*? over Projects ([\w, ]+) taken together""")
    def budget_per_engineer(self, found: re.Match[str]) -> str:
        facts = [self.project(n.strip()) for n in found.group(1).split(",")]
        budget, team = (sum(int(f.get(k, 0)) for f in facts) for k in ("budget", "team"))
        return f"{budget / team:.2f}" if team else UNKNOWN

    # the analysis ladder and probe: sales.csv
    @_rule(
        r"""(How many data rows|total of the units column|mean price of the 'north'|highest revenue|Pearson correlation|highest price)"""
    )
    def sales(self, found: re.Match[str]) -> str:
        rows = list(csv.DictReader(io.StringIO(self.read("sales.csv"))))
        units = [int(r["units"]) for r in rows]
        prices = [float(r["price"]) for r in rows]
        question = found.group(1)
        if question == "How many data rows":
            return str(len(rows))
        if question == "total of the units column":
            return str(sum(units))
        if question == "mean price of the 'north'":
            return f"{statistics.fmean(float(r['price']) for r in rows if r['region'] == 'north'):.2f}"
        if question == "highest revenue":
            revenue: dict[str, float] = {}
            for row, count, price in zip(rows, units, prices, strict=True):
                revenue[row["region"]] = revenue.get(row["region"], 0.0) + count * price
            return max(revenue, key=lambda region: revenue[region])
        if question == "Pearson correlation":
            return f"{statistics.correlation(units, prices):.3f}"
        return str(max(prices))


def heuristic(channel: Channel, message: dict[str, Any]) -> None:
    """Solve the task of ``message`` (the protocol's task message) through ``channel``."""
    _Agent(channel, message).solve()
