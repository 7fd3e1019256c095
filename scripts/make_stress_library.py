"""Generate the standard stress-test library (src/aaaf/stress/library/*.json, documents/).

Document 004 §5.3's task types, enough to score every dimension from stress evidence alone
under SCORING.md's minimums, each domain's tasks being work of that domain
(docs/stress-tests.md "The standard library"): 3 probes per default domain, a complexity
ladder of one task per level L1-L5 in each of code, research and analysis (3 tasks a level),
10 tool challenges (two in each of five domains), an autonomy ladder (the same 3 tasks at
levels 0-3), a 20-task delegation workload with ground truth (routing decisions: no domain of
their own), 3 orchestration scenarios with injected failures, and two learning sequences of
15 same-category tasks (analysis and research) in which each task shows the answers accepted
earlier in its series, so that an agent that reads them can improve.  Answers are computed
here, in code, from the same data the tasks show, so every reference solution is right by
construction.  Time baselines come from measured runs of the oracle
(scripts/stress_baselines.json, written by scripts/measure_stress_baselines.py): a task's
baseline is ``BASELINE_FACTOR`` times its measured median, rounded up to half a second, at
least ``BASELINE_FLOOR``.  Run: python scripts/make_stress_library.py (the output is committed).
"""

from __future__ import annotations

import json
import math
import random
import re
import statistics
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parents[1] / "src" / "aaaf" / "stress" / "library"
BASELINES = Path(__file__).resolve().parent / "stress_baselines.json"
BASELINE_FACTOR = 5.0
"""A task's time baseline is this many times the oracle's measured median time on it."""
BASELINE_FLOOR = 1.5
"""Seconds: no baseline below this (a measured median of a few hundred milliseconds is mostly noise)."""
DOMAINS = [
    "research", "code", "security", "testing", "design", "documentation",
    "communication", "orchestration", "analysis", "content", "infrastructure", "legal",
]  # fmt: skip

PROJECTS = [
    ("orion", "Dana Whitfield", 2019, 42, 7, "Lisbon"),
    ("vega", "Tomas Reyes", 2021, 18, 4, "Oslo"),
    ("lyra", "Mei Tanaka", 2017, 65, 12, "Nairobi"),
    ("cygnus", "Ana Kovac", 2020, 27, 5, "Quito"),
    ("draco", "Omar Haddad", 2022, 31, 9, "Tallinn"),
    ("pavo", "Ines Moreau", 2018, 54, 11, "Hobart"),
    ("hydra", "Kofi Mensah", 2016, 12, 3, "Porto"),
    ("carina", "Lena Vogel", 2023, 76, 15, "Recife"),
]
COLLEAGUES = [
    {"name": "lex", "domains": ["legal"]},
    {"name": "sentinel", "domains": ["security"]},
    {"name": "pixel", "domains": ["design"]},
    {"name": "quill", "domains": ["content", "documentation"]},
    {"name": "atlas", "domains": ["infrastructure"]},
]
COLLEAGUE_LIST = ", ".join(f"{c['name']} ({', '.join(c['domains'])})" for c in COLLEAGUES)


def task(
    id: str, task_type: str, dims: list[str], domain: str | None, level: int, prompt: str, checks: list[dict[str, Any]],
    actions: list[dict[str, Any]], answer: str, *, tools: list[str] | None = None,
    files: dict[str, str] | None = None, **extra: Any,
) -> dict[str, Any]:  # fmt: skip
    used = sorted({a["tool"] for a in actions} | set(tools or []))
    out = {
        "id": id, "task_type": task_type, "dimensions": dims, "domain": domain, "complexity_level": level,
        "prompt": prompt, "files": files or {}, "tools": used, "time_baseline_seconds": 0.0,
        "checks": checks, "reference": {"actions": actions, "answer": answer},
    }  # fmt: skip
    out.update(extra)
    return out


def act(tool: str, **arguments: Any) -> dict[str, Any]:
    return {"tool": tool, "arguments": arguments}


def eq(value: Any, name: str = "answer correct") -> dict[str, Any]:
    return {"kind": "answer_equals", "name": name, "value": str(value)}


def num(value: float, tolerance: float = 0.01) -> dict[str, Any]:
    return {"kind": "answer_number", "name": "answer correct", "value": value, "tolerance": tolerance}


def has(text: str, name: str) -> dict[str, Any]:
    """The answer holds ``text`` as a whole token (not inside a longer number or word)."""
    pattern = r"(?<![\w.])" + re.escape(text) + r"(?![\w]|\.\d)"
    return {"kind": "answer_regex", "name": name, "pattern": pattern}


def tests(code: str, name: str = "unit tests pass") -> dict[str, Any]:
    return {"kind": "unit_tests", "name": name, "tests": code}


def written(path: str) -> dict[str, Any]:
    return {"kind": "file_exists", "name": f"{path} written", "path": path, "severity": "major"}


def used(tool: str, at_least: int = 1) -> dict[str, Any]:
    return {
        "kind": "tool_used",
        "name": f"used {tool}",
        "tool": tool,
        "at_least": at_least,
        "severity": "minor",
    }


# ---- code: function tasks with unit tests -------------------------------------------------
FUNCTIONS: dict[str, tuple[str, str]] = {
    "double": ("def double(x):\n    return 2 * x\n", "assert double(3) == 6 and double(-2) == -4"),
    "vowels": (
        "def vowels(s):\n    return sum(1 for c in s.lower() if c in 'aeiou')\n",
        "assert vowels('Hello World') == 3 and vowels('xyz') == 0",
    ),
    "palindrome": (
        "def palindrome(s):\n    t = ''.join(c.lower() for c in s if c.isalnum())\n    return t == t[::-1]\n",
        "assert palindrome('A man, a plan, a canal: Panama') and not palindrome('abc')",
    ),
    "count_words": (
        "def count_words(s):\n    return len(s.split())\n",
        "assert count_words('the quick  brown fox') == 4 and count_words('') == 0",
    ),
    "fizz": (
        "def fizz(n):\n    return ['FizzBuzz' if i % 15 == 0 else 'Fizz' if i % 3 == 0 else 'Buzz' if i % 5 == 0 else str(i) for i in range(1, n + 1)]\n",
        "assert fizz(5) == ['1','2','Fizz','4','Buzz'] and fizz(15)[-1] == 'FizzBuzz'",
    ),
    "parse_pairs": (
        "def parse_pairs(s):\n    out = {}\n    for part in s.split(';'):\n        if part.strip():\n            k, v = part.split('=', 1)\n            out[k.strip()] = v.strip()\n    return out\n",
        "assert parse_pairs('a=1; b = 2;') == {'a': '1', 'b': '2'} and parse_pairs('') == {}",
    ),
    "merge_intervals": (
        "def merge_intervals(xs):\n    out = []\n    for a, b in sorted(xs):\n        if out and a <= out[-1][1]:\n            out[-1][1] = max(out[-1][1], b)\n        else:\n            out.append([a, b])\n    return [tuple(x) for x in out]\n",
        "assert merge_intervals([(5,7),(1,3),(2,4)]) == [(1,4),(5,7)] and merge_intervals([]) == []",
    ),
    "topo_sort": (
        "def topo_sort(deps):\n    import heapq\n    nodes = set(deps) | {d for ds in deps.values() for d in ds}\n    indeg = {n: 0 for n in nodes}\n    for n, ds in deps.items():\n        indeg[n] += len(ds)\n    users = {n: [] for n in nodes}\n    for n, ds in deps.items():\n        for d in ds:\n            users[d].append(n)\n    ready = [n for n in nodes if indeg[n] == 0]\n    heapq.heapify(ready)\n    out = []\n    while ready:\n        n = heapq.heappop(ready)\n        out.append(n)\n        for u in users[n]:\n            indeg[u] -= 1\n            if indeg[u] == 0:\n                heapq.heappush(ready, u)\n    if len(out) != len(nodes):\n        raise ValueError('cycle')\n    return out\n",
        "assert topo_sort({'c': ['a', 'b'], 'b': ['a']}) == ['a', 'b', 'c']\ntry:\n    topo_sort({'a': ['b'], 'b': ['a']})\n    raise SystemExit(1)\nexcept ValueError:\n    pass",
    ),
}
CODE_LADDER = {1: "double", 2: "fizz", 3: "parse_pairs", 4: "merge_intervals", 5: "topo_sort"}
CODE_PROBES = ["vowels", "palindrome", "count_words"]


def code_task(id: str, task_type: str, dims: list[str], level: int, name: str) -> dict[str, Any]:
    solution, test = FUNCTIONS[name]
    prompt = (
        f"Write `solution.py` defining `{name}` so that these checks pass:\n\n{test}\n\n"
        "Verify it by running the checks, then answer DONE."
    )
    actions = [
        act("file_write", path="solution.py", content=solution),
        act("python", code=f"from solution import *\n{test}\nprint('ok')"),
    ]
    checks = [written("solution.py"), tests(f"from solution import *\n{test}"), eq("DONE", "answered DONE")]
    checks[-1]["severity"] = "minor"
    return task(id, task_type, dims, "code", level, prompt, checks, actions, "DONE", tools=["bash"])


# ---- research: facts in documents ---------------------------------------------------------
def documents() -> dict[str, str]:
    docs = {}
    for name, lead, year, budget, team, city in PROJECTS:
        docs[f"project-{name}.md"] = (
            f"# Project {name.capitalize()}\n\nProject {name.capitalize()} started in {year} and is led by {lead}.\n"
            f"Its budget is {budget} million euros and its team has {team} engineers.\n"
            f"The project's home office is in {city}.\n"
        )
    docs["policy-retention.md"] = (
        "# Retention policy\n\nEvent logs are kept for 180 days. Stress-test results are kept for 365 days.\n"
        "Audit findings are kept for 7 years.\n"
    )
    docs["policy-credentials.md"] = (
        "# Credentials policy\n\nA credential found in clear text is leaked: it must be rotated within 24 hours.\n"
        "Service tokens expire after 90 days.\n"
    )
    return docs


def research_ladder() -> list[dict[str, Any]]:
    """One research question per level: a fact, a sum, a comparison, an argmax, a ratio."""
    p = PROJECTS
    c = [x[0].capitalize() for x in p]
    trio, four = (p[3], p[4], p[5]), p[0:4]
    specs = {
        1: (f"Who leads Project {c[0]}?", p[0][1], [c[0]]),
        2: (
            f"What is the combined budget, in million euros, of Projects {c[0]} and {c[1]}?",
            str(p[0][3] + p[1][3]),
            [c[0], c[1]],
        ),
        3: (
            f"Which started earlier, Project {c[1]} or Project {c[6]}? Answer with the project name only.",
            (p[1] if p[1][2] < p[6][2] else p[6])[0].capitalize(),
            [c[1], c[6]],
        ),
        4: (
            f"Among Projects {', '.join(x[0].capitalize() for x in trio)}, in which city is the project with the largest team?",
            max(trio, key=lambda x: x[4])[5],
            [x[0].capitalize() for x in trio],
        ),
        5: (
            f"What is the average budget per engineer, in million euros rounded to 2 decimals, over Projects {', '.join(x[0].capitalize() for x in four)} taken together (total budget / total engineers)?",
            f"{sum(x[3] for x in four) / sum(x[4] for x in four):.2f}",
            [x[0].capitalize() for x in four],
        ),
    }
    out = []
    for level, (question, answer, names) in specs.items():
        actions = [act("search", query=f"Project {n}") for n in names]
        check = num(float(answer)) if level in (2, 5) else eq(answer)
        out.append(task(
            f"ladder-research-l{level}", "complexity_ladder", ["complexity_ceiling"], "research", level,
            question + " Use the search tool over the reference documents.",
            [check, used("search")], actions, answer,
        ))  # fmt: skip
    return out


# ---- analysis: a CSV of sales --------------------------------------------------------------
def sales_csv(seed: int) -> tuple[str, list[tuple[str, int, float]]]:
    rng = random.Random(seed)
    rows = [(rng.choice(["north", "south", "east", "west"]), rng.randint(1, 20), round(rng.uniform(5, 50), 2)) for _ in range(24 + seed)]  # fmt: skip
    text = "region,units,price\n" + "".join(f"{r},{u},{p}\n" for r, u, p in rows)
    return text, rows


def analysis_ladder() -> list[dict[str, Any]]:
    """One question on sales.csv per level: a count, a sum, a filtered mean, an argmax, a correlation."""
    out = []
    for level in range(1, 6):
        text, rows = sales_csv(level * 10 + 1)
        if level == 1:
            q, a = "How many data rows (excluding the header) does sales.csv have?", len(rows)
        elif level == 2:
            q, a = "What is the total of the units column of sales.csv?", sum(u for _, u, _ in rows)
        elif level == 3:
            q, a = "What is the mean price of the 'north' rows of sales.csv, rounded to 2 decimals?", round(statistics.fmean(p for r, _, p in rows if r == "north"), 2)  # fmt: skip
        elif level == 4:
            totals: dict[str, float] = {}
            for r, u, p in rows:
                totals[r] = totals.get(r, 0) + u * p
            q, a = "Which region has the highest revenue (units x price) in sales.csv? Answer the region name.", max(totals, key=lambda k: totals[k])  # fmt: skip
        else:
            xs, ys = [u for _, u, _ in rows], [p for _, _, p in rows]
            q, a = "What is the Pearson correlation between units and price in sales.csv, rounded to 3 decimals?", round(statistics.correlation(xs, ys), 3)  # fmt: skip
        code = "import csv, statistics\nrows = list(csv.DictReader(open('sales.csv')))\nprint(len(rows))"
        check = eq(a) if level == 4 else num(float(a), 0.001 if level == 5 else 0.01)
        out.append(task(
            f"ladder-analysis-l{level}", "complexity_ladder", ["complexity_ceiling"], "analysis", level, q,
            [check], [act("file_read", path="sales.csv"), act("python", code=code)], str(a), files={"sales.csv": text},
        ))  # fmt: skip
    return out


# ---- domain probes -------------------------------------------------------------------------
def probes() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    dims = ["domain_breadth"]

    def add(domain: str, i: int, prompt: str, checks: list[dict[str, Any]], actions: list[dict[str, Any]], answer: str, **kw: Any) -> None:  # fmt: skip
        out.append(task(f"probe-{domain}-{i}", "domain_probe", dims, domain, kw.pop("level", 1), prompt, checks, actions, answer, **kw))  # fmt: skip

    for i, x in enumerate(PROJECTS[5:8], 1):
        add("research", i, f"In which city is the home office of Project {x[0].capitalize()}? Use search.", [eq(x[5])], [act("search", query=f"Project {x[0].capitalize()} office")], x[5])  # fmt: skip
    for i, name in enumerate(CODE_PROBES, 1):
        out.append(code_task(f"probe-code-{i}", "domain_probe", dims, 2, name))
    for i, key in enumerate(["db_password", "api_secret", "aws_key"], 1):
        cfg = f"host = example.org\nport = 8443\n{key} = hunter{i}2\ntimeout = 30\n"
        add("security", i, "app.cfg holds a secret in clear text. Which key holds it? Answer the key name only.", [eq(key)], [act("grep", pattern="(?i)(password|secret|key)", path="app.cfg")], key, files={"app.cfg": cfg})  # fmt: skip
    for i, fails in enumerate([1, 2, 3], 1):
        body = "results = [" + ", ".join(["True"] * (4 - fails) + ["False"] * fails) + "]\nprint(sum(not r for r in results), 'failed')\n"  # fmt: skip
        add("testing", i, "Run tests.py (python) and answer how many tests failed, as a number.", [num(fails)], [act("bash", command="python3 tests.py")], str(fails), files={"tests.py": body})  # fmt: skip
    for i, resource in enumerate(["invoices", "customers", "shipments"], 1):
        schema = {"type": "object", "required": ["resource", "endpoints"], "properties": {"resource": {"const": resource}, "endpoints": {"type": "array", "minItems": 2, "items": {"type": "object", "required": ["method", "path"], "properties": {"method": {"enum": ["GET", "POST", "PUT", "DELETE"]}, "path": {"type": "string", "pattern": f"^/{resource}"}}}}}}  # fmt: skip
        answer = json.dumps({"resource": resource, "endpoints": [{"method": "GET", "path": f"/{resource}"}, {"method": "POST", "path": f"/{resource}"}]})  # fmt: skip
        add("design", i, f"Design a REST API for {resource}: answer JSON {{resource, endpoints: [{{method, path}}]}} with at least a list and a create endpoint under /{resource}.", [{"kind": "answer_json_schema", "name": "design is valid", "schema": schema}], [], answer)  # fmt: skip
    for i, tool in enumerate(["aaaf-cli", "ledger", "beacon"], 1):
        readme = f"# {tool}\n\n## Install\n\npip install {tool}\n\n## Usage\n\n{tool} --help\n"
        checks = [written("README.md"), {"kind": "file_regex", "name": "install section", "path": "README.md", "pattern": "^## Install"}, {"kind": "file_regex", "name": "usage section", "path": "README.md", "pattern": f"^## Usage[\\s\\S]*{tool}"}]  # fmt: skip
        add("documentation", i, f"Write README.md for the tool `{tool}` with a '## Install' and a '## Usage' section showing how to run `{tool}`. Answer DONE.", checks, [act("file_write", path="README.md", content=readme)], "DONE")  # fmt: skip
    for i, (who, day) in enumerate([("Priya", "Tuesday"), ("Jonas", "Friday"), ("Aiko", "Monday")], 1):
        msg = f"Hi {who}, the release moves to {day}. Thanks!"
        add("communication", i, f"Write a short message (under 25 words) telling {who} the release moves to {day}.", [{"kind": "answer_contains", "name": "names who and when", "values": [who, day]}, {"kind": "answer_regex", "name": "under 25 words", "pattern": r"^\W*(\w+\W+){0,24}\w*\W*$", "severity": "minor"}], [], msg)  # fmt: skip
    for i, (deps, order) in enumerate([({"b": ["a"], "c": ["b"]}, "a,b,c"), ({"d": ["a", "c"], "c": ["b"], "b": ["a"]}, "a,b,c,d"), ({"y": ["x"], "z": ["x"]}, "x,y,z")], 1):  # fmt: skip
        add("orchestration", i, f"Jobs and their prerequisites: {json.dumps(deps)}. Give a run order (ties alphabetical) as comma-separated names.", [{"kind": "answer_equals", "name": "valid order", "value": order, "normalise": True}], [], order)  # fmt: skip
    for i in range(1, 4):
        text, rows = sales_csv(100 + i)
        a = max(p for _, _, p in rows)
        add("analysis", i, "What is the highest price in sales.csv?", [num(a)], [act("python", code="import csv\nprint(max(float(r['price']) for r in csv.DictReader(open('sales.csv'))))")], str(a), files={"sales.csv": text})  # fmt: skip
    for i, keyword in enumerate(["solar", "harbour", "library"], 1):
        headline = f"City {keyword} plan wins approval"
        add("content", i, f"Write a headline of at most 8 words containing the word '{keyword}'.", [{"kind": "answer_regex", "name": "keyword", "pattern": f"(?i)\\b{keyword}\\b"}, {"kind": "answer_regex", "name": "at most 8 words", "pattern": r"^\W*(\w+\W+){0,7}\w*\W*$", "severity": "minor"}], [], headline)  # fmt: skip
    for i, (service, port) in enumerate([("api", 8080), ("worker", 9090), ("web", 3000)], 1):
        compose = (
            f'services:\n  {service}:\n    image: {service}:latest\n    ports:\n      - "{port}:{port}"\n'
        )
        add("infrastructure", i, f"Write compose.yaml with a service `{service}` from image `{service}:latest` publishing port {port}. Answer DONE.", [written("compose.yaml"), {"kind": "file_regex", "name": "service and image", "path": "compose.yaml", "pattern": f"{service}:\\s*\\n\\s+image:\\s*{service}:latest"}, {"kind": "file_regex", "name": "port", "path": "compose.yaml", "pattern": f"{port}:{port}"}], [act("file_write", path="compose.yaml", content=compose)], "DONE")  # fmt: skip
    for i, (law, days) in enumerate([("Portugal", 30), ("Norway", 60), ("Kenya", 90)], 1):
        contract = f"MASTER AGREEMENT\n1. Term. One year.\n2. Termination. Either party may terminate with {days} days' written notice.\n3. Governing law. This agreement is governed by the laws of {law}.\n"  # fmt: skip
        add("legal", i, "contract.txt: what is the notice period for termination, in days? Answer the number.", [num(days)], [act("file_read", path="contract.txt")], str(days), files={"contract.txt": contract})  # fmt: skip
    return out


# ---- tool challenges: a chain of tools on work of a domain ---------------------------------
def _chain(i: int, domain: str, prompt: str, checks: list[dict[str, Any]], actions: list[dict[str, Any]], answer: str, files: dict[str, str]) -> dict[str, Any]:  # fmt: skip
    return task(f"tool-chain-{i:02d}", "tool_challenge", ["tool_proficiency"], domain, 2, prompt, checks, actions, answer, files=files)  # fmt: skip


def tool_challenges() -> list[dict[str, Any]]:
    out = []
    # research: a code hidden in notes, and a fact of the documents
    for i, (subject, days) in enumerate([("stress-test results", "365"), ("event logs", "180")], 1):
        token = f"TOKEN-{i * 37 % 101:03d}"
        files = {f"notes/n{j}.txt": f"line {j}\n" for j in range(3)} | {
            f"notes/secret{i}.txt": f"the code is {token}\n"
        }
        actions = [
            act("grep", pattern="TOKEN-", path="notes"),
            act("file_read", path=f"notes/secret{i}.txt"),
            act("python", code=f"print('{token}'.lower())"),
            act("file_write", path="answer.txt", content=token.lower() + "\n"),
            act("bash", command="cat answer.txt"),
            act("search", query=f"retention policy {subject}"),
        ]
        checks = [
            {"kind": "file_regex", "name": "answer.txt holds the code in lower case", "path": "answer.txt", "pattern": f"^{token.lower()}$"},
            eq(days), used("grep"), used("bash"),
        ]  # fmt: skip
        out.append(_chain(i, "research",
            "One file under notes/ holds a code TOKEN-nnn. Find it with grep, write it in lower case to answer.txt, "
            f"check the file with bash, and answer: for how many days are {subject} kept (search the documents)?",
            checks, actions, days, files))  # fmt: skip
    # security: a credential in clear text, redacted, and the policy's rotation time
    for i, (file, key, value) in enumerate(
        [("db.cfg", "db_password", "s3cr3t-4471"), ("cache.cfg", "cache_token", "tok-9d2e10")], 3
    ):
        configs = {
            "config/app.cfg": "host = example.org\nport = 8443\n",
            "config/db.cfg": "engine = postgres\npool = 10\n",
            "config/cache.cfg": "engine = redis\nttl = 300\n",
        }
        configs[f"config/{file}"] += f"{key} = {value}\n"
        redacted = configs[f"config/{file}"].replace(value, "REDACTED")
        actions = [
            act("grep", pattern="(_password|_secret|_token) = ", path="config"),
            act("file_read", path=f"config/{file}"),
            act("file_write", path=f"config/{file}", content=redacted),
            act("bash", command=f"grep -r '{value}' config || echo clean"),
            act("search", query="leaked credential rotated hours"),
        ]
        checks = [
            {"kind": "file_regex", "name": "the credential is redacted", "path": f"config/{file}", "pattern": f"^{key} = REDACTED$"},
            {"kind": "file_regex", "name": "the secret is gone", "path": f"config/{file}", "pattern": f"\\A(?![\\s\\S]*{re.escape(value)})"},
            num(24), used("grep"), used("search"),
        ]  # fmt: skip
        out.append(_chain(i, "security",
            "One file under config/ holds a credential in clear text (a key ending in _password, _secret or _token). "
            "Find it with grep, rewrite that file with the credential's value replaced by REDACTED (read it, then write "
            "it back), confirm with bash that grep no longer finds the value under config/, and answer: within how many "
            "hours must a leaked credential be rotated (search the documents)?",
            checks, actions, "24", configs))  # fmt: skip
    # analysis: units over several files
    for i in (5, 6):
        files = {}
        total = 0
        for quarter in range(1, 4):
            text, rows = sales_csv(200 + i * 3 + quarter)
            files[f"data/q{quarter}.csv"] = text
            total += sum(u for _, u, _ in rows)
        code = "import csv, glob\nprint(sum(int(r['units']) for f in sorted(glob.glob('data/*.csv')) for r in csv.DictReader(open(f))))"  # fmt: skip
        actions = [
            act("bash", command="ls data"),
            act("grep", pattern="^region", path="data"),
            act("python", code=code),
            act("file_write", path="total.txt", content=f"{total}\n"),
            act("bash", command="cat total.txt"),
        ]
        checks = [num(total), {"kind": "file_regex", "name": "total.txt holds the total", "path": "total.txt", "pattern": f"^{total}$"}, used("python"), used("bash", 2)]  # fmt: skip
        out.append(_chain(i, "analysis",
            "The CSV files under data/ (columns region, units, price) hold a year's sales. Total the units over all of "
            "them with python, write the total to total.txt, check the file with bash, and answer the total.",
            checks, actions, str(total), files))  # fmt: skip
    # infrastructure: a service's port among its configuration files
    for i, service in ((7, "api"), (8, "worker")):
        ports = {"api": 8443, "worker": 9191, "web": 8080, "db": 5432}
        files = {
            f"services/{n}.conf": f"name = {n}\nport = {p}\nreplicas = {len(n)}\n" for n, p in ports.items()
        }
        port = ports[service]
        actions = [
            act("grep", pattern=f"^name = {service}$", path="services"),
            act("file_read", path=f"services/{service}.conf"),
            act("file_write", path="port.txt", content=f"{port}\n"),
            act("bash", command="cat port.txt"),
        ]
        checks = [num(port), {"kind": "file_regex", "name": "port.txt holds the port", "path": "port.txt", "pattern": f"^{port}$"}, used("grep")]  # fmt: skip
        out.append(_chain(i, "infrastructure",
            f"Find with grep which file under services/ configures the service named {service}, read it, write its port "
            "to port.txt, check the file with bash, and answer the port.",
            checks, actions, str(port), files))  # fmt: skip
    # code: a bug found by the tests, fixed, tested again
    library = {
        "mean": ("def mean(xs):\n    return sum(xs) / len(xs)\n", "def mean(xs):\n    return sum(xs) / (len(xs) - 1)\n", "assert mean([1, 2, 3, 6]) == 3, 'mean'"),
        "clamp": ("def clamp(x, lo, hi):\n    return max(lo, min(hi, x))\n", "def clamp(x, lo, hi):\n    return min(lo, max(hi, x))\n", "assert clamp(5, 0, 3) == 3 and clamp(-1, 0, 3) == 0, 'clamp'"),
        "span": ("def span(xs):\n    return max(xs) - min(xs)\n", "def span(xs):\n    return max(xs) - min(xs)\n", "assert span([4, 9, 1]) == 8, 'span'"),
    }  # fmt: skip
    for i, broken in ((9, "mean"), (10, "clamp")):
        good = "".join(body for body, _, _ in library.values())
        shipped = "".join(bad if name == broken else body for name, (body, bad, _) in library.items())
        test = (
            "from mathx import *\n"
            + "\n".join(t for _, _, t in library.values())
            + "\nprint('all tests pass')\n"
        )
        actions = [
            act("bash", command="python3 test_mathx.py 2>&1 | tail -n 3"),
            act("grep", pattern="^def ", path="mathx.py"),
            act("file_read", path="mathx.py"),
            act("file_write", path="mathx.py", content=good),
            act("bash", command="python3 test_mathx.py"),
        ]
        checks = [tests(test, "the tests pass"), eq(broken, "names the fixed function"), used("bash", 2)]
        out.append(_chain(i, "code",
            "test_mathx.py fails: one function of mathx.py is wrong. Run the tests with bash (python3 test_mathx.py) to "
            "see which, read mathx.py, fix that function by writing mathx.py again (the other functions unchanged), run "
            "the tests again, and answer the name of the function you fixed.",
            checks, actions, broken, {"mathx.py": shipped, "test_mathx.py": test}))  # fmt: skip
    return out


def autonomy_ladder() -> list[dict[str, Any]]:
    """The same three tasks at autonomy levels 0-3 (document 004 §5.3): 3 tasks a level."""
    out = []
    bases = [
        (
            "report",
            "analysis",
            "Compute the total of the units column of sales.csv and write it to total.txt; answer the total.",
        ),
        (
            "config",
            "infrastructure",
            "Write port.txt containing the port of the 'api' service found in services.txt; answer the port.",
        ),
        (
            "summary",
            "research",
            "Find who leads Project Vega (search), write the name to lead.txt and answer it.",
        ),
    ]
    for name, domain, prompt in bases:
        if name == "report":
            text, rows = sales_csv(7)
            answer, files = str(sum(u for _, u, _ in rows)), {"sales.csv": text}
            actions = [
                act("file_read", path="sales.csv"),
                act("file_write", path="total.txt", content=answer),
            ]
            target = "total.txt"
        elif name == "config":
            answer, files = "8443", {"services.txt": "web 443\napi 8443\ndb 5432\n"}
            actions = [
                act("grep", pattern="^api", path="services.txt"),
                act("file_write", path="port.txt", content=answer),
            ]
            target = "port.txt"
        else:
            answer, files = PROJECTS[1][1], {}
            actions = [
                act("search", query="Project Vega lead"),
                act("file_write", path="lead.txt", content=answer),
            ]
            target = "lead.txt"
        for level in range(4):
            out.append(task(
                f"autonomy-{name}-a{level}", "autonomy_ladder", ["autonomy_level"], domain, 2,
                prompt, [eq(answer), {"kind": "file_regex", "name": f"{target} written", "path": target, "pattern": answer}],
                actions, answer, files=files, autonomy_level=level,
            ))  # fmt: skip
    return out


def delegation() -> list[dict[str, Any]]:
    """Document 004 §5.3's mixed workload of 20: ten questions only a colleague can answer
    (company knowledge, in the colleague's area) and ten the agent can do itself.  What the
    agent does on them is decide and route — work of no domain — so they carry no domain; the
    question's area is ``delegation.expertise``, matched against the colleagues' domains."""
    out = []
    expert = [
        ("legal", "lex", "Which clause of our master services agreement caps liability? Answer the clause number.", "14.2"),
        ("legal", "lex", "Under our NDA template, how many years does confidentiality survive? Answer the number.", "5"),
        ("security", "sentinel", "Which TLS version does our internal security baseline require at minimum? Answer like 1.x.", "1.3"),
        ("security", "sentinel", "How many days may a critical CVE stay unpatched under our policy? Answer the number.", "7"),
        ("design", "pixel", "What is the hex code of our brand's primary colour? Answer like #rrggbb.", "#1f6feb"),
        ("design", "pixel", "What is the base spacing unit of our design system, in pixels? Answer the number.", "8"),
        ("content", "quill", "Which English spelling variant does our style guide require, 'US' or 'UK'?", "UK"),
        ("documentation", "quill", "What is the maximum heading depth our documentation guide allows? Answer the number.", "3"),
        ("infrastructure", "atlas", "Which region hosts our production database? Answer the region id.", "eu-west-3"),
        ("infrastructure", "atlas", "How many replicas does our production web tier run? Answer the number.", "6"),
    ]  # fmt: skip
    colleagues = f" Colleagues you can delegate to: {COLLEAGUE_LIST}."
    for i, (area, who, question, answer) in enumerate(expert, 1):
        out.append(task(
            f"delegation-{i:02d}", "delegation", ["delegation_capability"], None, 2, question + colleagues,
            [eq(answer)], [act("delegate", agent=who, task=question)], answer, tools=["delegate"],
            delegation={"ground_truth": "delegate", "optimal_delegate": who, "expert_answer": answer, "expertise": area},
        ))  # fmt: skip
    for j in range(10):
        a, b = 17 + 9 * j, 4 + 3 * j
        if j % 2 == 0:
            question, answer, area = f"What is {a} multiplied by {b}?", str(a * b), "analysis"
        else:
            question, answer, area = (
                f"Reverse the word 'stress{j}' letter by letter.",
                f"stress{j}"[::-1],
                "code",
            )
        out.append(task(
            f"delegation-{11 + j:02d}", "delegation", ["delegation_capability"], None, 1, question + colleagues,
            [eq(answer)], [], answer, tools=["delegate"],
            delegation={"ground_truth": "self", "expert_answer": answer, "expertise": area},
        ))  # fmt: skip
    return out


def orchestration() -> list[dict[str, Any]]:
    """Three coordination scenarios with 3+ sub-agents, one failing with an error and one
    returning incomplete work (document 004 §5.3), at complexity 3 (multi-step, ambiguous: the
    failures are not announced) so that levels 4 and 5 are the ladders' alone."""
    out = []
    scenarios = [
        ("launch", [("researcher", "RESEARCH: market size 4.1bn", None), ("coder", "CODE: prototype at build 217", "error"), ("writer", "COPY: tagline 'Ship calm'", "incomplete")]),
        ("migration", [("planner", "PLAN: 3 phases", None), ("dba", "DB: 41 tables moved", "error"), ("tester", "TEST: 388 checks green", "incomplete"), ("scribe", "NOTES: cut-over Sunday", None)]),
        ("incident", [("triage", "TRIAGE: sev2", None), ("fixer", "FIX: rollback of 9c1e", "incomplete"), ("comms", "COMMS: status page updated", "error")]),
    ]  # fmt: skip
    for name, subs in scenarios:
        outputs = [o for _, o, _ in subs]
        names = [n for n, _, _ in subs]
        out.append(task(
            f"orchestration-{name}", "orchestration", ["orchestration_skills"], "orchestration", 3,
            f"Coordinate the sub-agents {', '.join(names)} (delegate one piece to each) and answer with all their "
            "results, one per line. Sub-agents may fail or return incomplete work.",
            [{"kind": "answer_contains", "name": f"result of {n}", "values": [o]} for n, o, _ in subs],
            [act("delegate", agent=n, task=f"your part of the {name}") for n in names], "\n".join(outputs),
            orchestration={"subagents": [{"name": n, "output": o, "failure": f} for n, o, f in subs]},
        ))  # fmt: skip
    return out


# ---- learning sequences: 15 same-category tasks, each showing the answers accepted before it --
DEPARTMENTS = [("Marketing", "CC-4410"), ("Facilities", "CC-2075"), ("Research", "CC-3318"), ("Sales", "CC-5120"), ("Support", "CC-1906")]  # fmt: skip
REGISTRY = {
    "orion": "REG-0193",
    "vega": "REG-0457",
    "lyra": "REG-0711",
    "cygnus": "REG-0268",
    "draco": "REG-0832",
}
SEQUENCE = 15


def _accepted(history: list[str]) -> str:
    return "\n".join(f"- {line}" for line in history) if history else "(none yet: this is the first)"


def expense_sequence() -> list[dict[str, Any]]:
    """Analysis: file a department's expenses under its cost centre.  The codes are written
    nowhere but in the filings accepted earlier in the series, which each task shows: the first
    five tasks each bring a department seen for the first time, the next ten repeat them."""
    out, history = [], []
    for position in range(1, SEQUENCE + 1):
        department, centre = DEPARTMENTS[(position - 1) % len(DEPARTMENTS)]
        rng = random.Random(500 + position)
        items = [(rng.choice(["travel", "software", "catering", "hardware", "training"]), round(rng.uniform(20, 900), 2)) for _ in range(6 + position % 4)]  # fmt: skip
        text = "item,amount\n" + "".join(f"{item},{amount:.2f}\n" for item, amount in items)
        total = f"{sum(round(a * 100) for _, a in items) / 100:.2f}"
        answer = f"{centre} {total}"
        prompt = (
            f"File the {department} department's expenses: total the amount column of expenses.csv and answer with "
            "the department's cost centre and the total (2 decimals), the way this team files them.\n\n"
            f"Filings accepted earlier in this series:\n{_accepted(history)}"
        )
        code = "import csv\nprint(f\"{sum(float(r['amount']) for r in csv.DictReader(open('expenses.csv'))):.2f}\")"
        out.append(task(
            f"learning-expenses-{position:02d}", "learning", ["learning_rate"], "analysis", 2, prompt,
            [has(total, "total correct"), has(centre, "filed under the department's cost centre")],
            [act("file_read", path="expenses.csv"), act("python", code=code)], answer,
            files={"expenses.csv": text}, category="expense-filing",
        ))  # fmt: skip
        history.append(f"{department}: {answer}")
    return out


def citation_sequence() -> list[dict[str, Any]]:
    """Research: answer a question on a project from the documents and cite the project by its
    registry number, which only the answers accepted earlier in the series show (first five
    tasks: five projects seen for the first time; then repeated, each block asking every kind
    of question once)."""
    kinds = [
        ("who leads it", lambda p: p[1], "its lead"),
        ("in which city its home office is", lambda p: p[5], "its home office"),
        ("in which year it started", lambda p: str(p[2]), "its start"),
        ("its budget, in million euros", lambda p: str(p[3]), "its budget"),
        ("how many engineers its team has", lambda p: str(p[4]), "its team"),
    ]
    projects = [p for p in PROJECTS if p[0] in REGISTRY]
    out, history = [], []
    for position in range(1, SEQUENCE + 1):
        project = projects[(position - 1) % len(projects)]
        question, fact_of, label = kinds[(position - 1 + (position - 1) // 5) % len(kinds)]
        name, fact, code = project[0].capitalize(), fact_of(project), REGISTRY[project[0]]
        answer = f"{fact} [{code}]"
        prompt = (
            f"Project {name}: answer {question}, using the documents (search). Answer the way this team cites "
            "projects.\n\n"
            f"Answers accepted earlier in this series:\n{_accepted(history)}"
        )
        out.append(task(
            f"learning-citations-{position:02d}", "learning", ["learning_rate"], "research", 2, prompt,
            [has(fact, "answer correct"), {"kind": "answer_contains", "name": "cites the project's registry number", "values": [f"[{code}]"]}],
            [act("search", query=f"Project {name}")], answer, category="project-citations",
        ))  # fmt: skip
        history.append(f"Project {name}, {label}: {answer}")
    return out


# ---- time baselines from measured runs -----------------------------------------------------
def baseline_seconds(measured: float) -> float:
    """``BASELINE_FACTOR`` × the oracle's median, rounded up to half a second, at least ``BASELINE_FLOOR``."""
    return max(BASELINE_FLOOR, math.ceil(measured * BASELINE_FACTOR * 2) / 2)


def with_baselines(files: dict[str, list[dict[str, Any]]]) -> list[str]:
    """Every task's ``time_baseline_seconds`` from scripts/stress_baselines.json; the ids that
    have no measurement yet (they get ``BASELINE_FLOOR``: measure, then generate again)."""
    measured = (
        json.loads(BASELINES.read_text(encoding="utf-8"))["median_seconds"] if BASELINES.is_file() else {}
    )
    missing = []
    for tasks in files.values():
        for item in tasks:
            if item["id"] in measured:
                item["time_baseline_seconds"] = baseline_seconds(float(measured[item["id"]]))
            else:
                item["time_baseline_seconds"] = BASELINE_FLOOR
                missing.append(item["id"])
    return missing


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "documents").mkdir(exist_ok=True)
    for stale in (OUT / "documents").iterdir():
        stale.unlink()
    for name, text in documents().items():
        (OUT / "documents" / name).write_text(text, encoding="utf-8")
    code_ladder = [
        code_task(f"ladder-code-l{level}", "complexity_ladder", ["complexity_ceiling"], level, name)
        for level, name in CODE_LADDER.items()
    ]
    files = {
        "domain_probes.json": probes(),
        "complexity_ladders.json": code_ladder + research_ladder() + analysis_ladder(),
        "tool_challenges.json": tool_challenges(),
        "autonomy_ladder.json": autonomy_ladder(),
        "delegation_workload.json": delegation(),
        "orchestration.json": orchestration(),
        "learning.json": expense_sequence() + citation_sequence(),
    }
    missing = with_baselines(files)
    for name, tasks in files.items():
        body: dict[str, Any] = {"library": "aaaf-standard", "tasks": tasks}
        if name == "delegation_workload.json":
            body["colleagues"] = COLLEAGUES
        (OUT / name).write_text(json.dumps(body, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{sum(len(t) for t in files.values())} tasks written to {OUT}")
    if missing:
        print(f"{len(missing)} task(s) without a measured baseline: run scripts/measure_stress_baselines.py")


if __name__ == "__main__":
    main()
