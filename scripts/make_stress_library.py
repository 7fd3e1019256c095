"""Generate the standard stress-test library (src/aaaf/stress/library/*.json, documents/).

Document 004 §5.3's task types, enough to score every dimension from stress evidence alone
under SCORING.md's minimums: 3 probes per default domain, complexity ladders L1-L5 x 3 for
code, research and analysis, tool challenges, an autonomy ladder (3 tasks x levels 0-3), a
20-task delegation workload with ground truth, 3 orchestration scenarios with injected
failures and 15 same-category tasks for the learning rate.  Answers are computed here, in
code, from the same data the tasks show, so every reference solution is right by
construction.  Run: python scripts/make_stress_library.py (the output is committed).
"""

from __future__ import annotations

import json
import random
import statistics
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parents[1] / "src" / "aaaf" / "stress" / "library"
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


def task(
    id: str, task_type: str, dims: list[str], domain: str, level: int, prompt: str, checks: list[dict[str, Any]],
    actions: list[dict[str, Any]], answer: str, *, tools: list[str] | None = None,
    files: dict[str, str] | None = None, baseline: float = 20.0, **extra: Any,
) -> dict[str, Any]:  # fmt: skip
    used = sorted({a["tool"] for a in actions} | set(tools or []))
    out = {
        "id": id, "task_type": task_type, "dimensions": dims, "domain": domain, "complexity_level": level,
        "prompt": prompt, "files": files or {}, "tools": used, "time_baseline_seconds": baseline,
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


def tests(code: str, name: str = "unit tests pass") -> dict[str, Any]:
    return {"kind": "unit_tests", "name": name, "tests": code}


def written(path: str) -> dict[str, Any]:
    return {"kind": "file_exists", "name": f"{path} written", "path": path, "severity": "major"}


# ---- code: function tasks with unit tests -------------------------------------------------
CODE_LEVELS: dict[int, list[tuple[str, str, str]]] = {
    1: [
        ("double", "def double(x):\n    return 2 * x\n", "assert double(3) == 6 and double(-2) == -4"),
        ("square", "def square(x):\n    return x * x\n", "assert square(4) == 16 and square(-3) == 9"),
        ("negate", "def negate(x):\n    return -x\n", "assert negate(5) == -5 and negate(-1) == 1"),
    ],
    2: [
        (
            "fizz",
            "def fizz(n):\n    return ['FizzBuzz' if i % 15 == 0 else 'Fizz' if i % 3 == 0 else 'Buzz' if i % 5 == 0 else str(i) for i in range(1, n + 1)]\n",
            "assert fizz(5) == ['1','2','Fizz','4','Buzz'] and fizz(15)[-1] == 'FizzBuzz'",
        ),
        (
            "vowels",
            "def vowels(s):\n    return sum(1 for c in s.lower() if c in 'aeiou')\n",
            "assert vowels('Hello World') == 3 and vowels('xyz') == 0",
        ),
        (
            "palindrome",
            "def palindrome(s):\n    t = ''.join(c.lower() for c in s if c.isalnum())\n    return t == t[::-1]\n",
            "assert palindrome('A man, a plan, a canal: Panama') and not palindrome('abc')",
        ),
    ],
    3: [
        (
            "parse_pairs",
            "def parse_pairs(s):\n    out = {}\n    for part in s.split(';'):\n        if part.strip():\n            k, v = part.split('=', 1)\n            out[k.strip()] = v.strip()\n    return out\n",
            "assert parse_pairs('a=1; b = 2;') == {'a': '1', 'b': '2'} and parse_pairs('') == {}",
        ),
        (
            "word_freq",
            "def word_freq(s):\n    import collections, re\n    c = collections.Counter(re.findall(r'[a-z]+', s.lower()))\n    return sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))[:3]\n",
            "assert word_freq('b a b c a b') == [('b', 3), ('a', 2), ('c', 1)]",
        ),
        (
            "rle",
            "def rle(s):\n    out = []\n    for c in s:\n        if out and out[-1][0] == c:\n            out[-1][1] += 1\n        else:\n            out.append([c, 1])\n    return ''.join(f'{c}{n}' for c, n in out)\n",
            "assert rle('aaabcc') == 'a3b1c2' and rle('') == ''",
        ),
    ],
    4: [
        (
            "merge_intervals",
            "def merge_intervals(xs):\n    out = []\n    for a, b in sorted(xs):\n        if out and a <= out[-1][1]:\n            out[-1][1] = max(out[-1][1], b)\n        else:\n            out.append([a, b])\n    return [tuple(x) for x in out]\n",
            "assert merge_intervals([(5,7),(1,3),(2,4)]) == [(1,4),(5,7)] and merge_intervals([]) == []",
        ),
        (
            "balanced",
            "def balanced(s):\n    pairs = {')': '(', ']': '[', '}': '{'}\n    stack = []\n    for c in s:\n        if c in '([{':\n            stack.append(c)\n        elif c in pairs:\n            if not stack or stack.pop() != pairs[c]:\n                return False\n    return not stack\n",
            "assert balanced('([]{})') and not balanced('(]') and not balanced('((')",
        ),
        (
            "roman",
            "def roman(n):\n    vals = [(1000,'M'),(900,'CM'),(500,'D'),(400,'CD'),(100,'C'),(90,'XC'),(50,'L'),(40,'XL'),(10,'X'),(9,'IX'),(5,'V'),(4,'IV'),(1,'I')]\n    out = ''\n    for v, s in vals:\n        while n >= v:\n            out += s\n            n -= v\n    return out\n",
            "assert roman(1994) == 'MCMXCIV' and roman(4) == 'IV' and roman(3999) == 'MMMCMXCIX'",
        ),
    ],
    5: [
        (
            "shortest_path",
            "def shortest_path(graph, start, goal):\n    import heapq\n    dist = {start: 0}\n    heap = [(0, start)]\n    while heap:\n        d, node = heapq.heappop(heap)\n        if node == goal:\n            return d\n        if d > dist.get(node, float('inf')):\n            continue\n        for nxt, w in graph.get(node, {}).items():\n            if d + w < dist.get(nxt, float('inf')):\n                dist[nxt] = d + w\n                heapq.heappush(heap, (d + w, nxt))\n    return None\n",
            "g = {'a': {'b': 1, 'c': 4}, 'b': {'c': 2, 'd': 7}, 'c': {'d': 1}}\nassert shortest_path(g, 'a', 'd') == 4 and shortest_path(g, 'd', 'a') is None",
        ),
        (
            "lru",
            "class LRU:\n    def __init__(self, capacity):\n        from collections import OrderedDict\n        self.capacity, self.data = capacity, OrderedDict()\n    def get(self, key):\n        if key not in self.data:\n            return None\n        self.data.move_to_end(key)\n        return self.data[key]\n    def put(self, key, value):\n        self.data[key] = value\n        self.data.move_to_end(key)\n        if len(self.data) > self.capacity:\n            self.data.popitem(last=False)\n",
            "c = LRU(2); c.put('a', 1); c.put('b', 2); c.get('a'); c.put('c', 3)\nassert c.get('b') is None and c.get('a') == 1 and c.get('c') == 3",
        ),
        (
            "topo_sort",
            "def topo_sort(deps):\n    import heapq\n    nodes = set(deps) | {d for ds in deps.values() for d in ds}\n    indeg = {n: 0 for n in nodes}\n    for n, ds in deps.items():\n        indeg[n] += len(ds)\n    users = {n: [] for n in nodes}\n    for n, ds in deps.items():\n        for d in ds:\n            users[d].append(n)\n    ready = [n for n in nodes if indeg[n] == 0]\n    heapq.heapify(ready)\n    out = []\n    while ready:\n        n = heapq.heappop(ready)\n        out.append(n)\n        for u in users[n]:\n            indeg[u] -= 1\n            if indeg[u] == 0:\n                heapq.heappush(ready, u)\n    if len(out) != len(nodes):\n        raise ValueError('cycle')\n    return out\n",
            "assert topo_sort({'c': ['a', 'b'], 'b': ['a']}) == ['a', 'b', 'c']\ntry:\n    topo_sort({'a': ['b'], 'b': ['a']})\n    raise SystemExit(1)\nexcept ValueError:\n    pass",
        ),
    ],
}


def code_task(id: str, task_type: str, dims: list[str], level: int, name: str, solution: str, test: str, **extra: Any) -> dict[str, Any]:  # fmt: skip
    prompt = (
        f"Write `solution.py` defining `{name}` so that these checks pass:\n\n{test}\n\n"
        "Verify it by running the checks, then answer DONE."
    )
    actions = [
        act("file_write", path="solution.py", content=solution),
        act(
            "python", code=f"import sys\nsys.path.insert(0, '.')\nfrom solution import *\n{test}\nprint('ok')"
        ),
    ]
    checks = [written("solution.py"), tests(f"from solution import *\n{test}"), eq("DONE", "answered DONE")]
    checks[-1]["severity"] = "minor"
    return task(id, task_type, dims, "code", level, prompt, checks, actions, "DONE", tools=["bash"], baseline=10.0 * level, **extra)  # fmt: skip


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
    return docs


def research_ladder() -> list[dict[str, Any]]:
    out = []
    p = PROJECTS
    specs: dict[int, list[tuple[str, str, list[str]]]] = {
        1: [(f"Who leads Project {x[0].capitalize()}?", x[1], [x[0]]) for x in p[:3]],
        2: [
            (
                f"What is the combined budget, in million euros, of Projects {a[0].capitalize()} and {b[0].capitalize()}?",
                str(a[3] + b[3]),
                [a[0], b[0]],
            )
            for a, b in ((p[0], p[1]), (p[2], p[3]), (p[4], p[5]))
        ],
        3: [
            (
                f"Which started earlier, Project {a[0].capitalize()} or Project {b[0].capitalize()}? Answer with the project name only.",
                (a if a[2] < b[2] else b)[0].capitalize(),
                [a[0], b[0]],
            )
            for a, b in ((p[0], p[2]), (p[1], p[6]), (p[3], p[7]))
        ],
        4: [
            (
                f"Among Projects {', '.join(x[0].capitalize() for x in trio)}, in which city is the project with the largest team?",
                max(trio, key=lambda x: x[4])[5],
                [x[0] for x in trio],
            )
            for trio in ((p[0], p[1], p[2]), (p[3], p[4], p[5]), (p[5], p[6], p[7]))
        ],
        5: [
            (
                f"What is the average budget per engineer, in million euros rounded to 2 decimals, over Projects {', '.join(x[0].capitalize() for x in four)} taken together (total budget / total engineers)?",
                f"{sum(x[3] for x in four) / sum(x[4] for x in four):.2f}",
                [x[0] for x in four],
            )
            for four in (p[0:4], p[2:6], p[4:8])
        ],
    }
    for level, items in specs.items():
        for index, (question, answer, names) in enumerate(items, 1):
            actions = [act("search", query=f"Project {n.capitalize()}") for n in names]
            check = num(float(answer)) if level in (2, 5) else eq(answer)
            out.append(
                task(
                    f"ladder-research-l{level}-{index}",
                    "complexity_ladder",
                    ["complexity_ceiling"],
                    "research",
                    level,
                    question + " Use the search tool over the reference documents.",
                    [
                        check,
                        {
                            "kind": "tool_used",
                            "name": "searched the documents",
                            "tool": "search",
                            "severity": "minor",
                        },
                    ],
                    actions,
                    answer,
                    baseline=10.0 * level,
                )
            )
    return out


# ---- analysis: a CSV of sales --------------------------------------------------------------
def sales_csv(seed: int) -> tuple[str, list[tuple[str, int, float]]]:
    rng = random.Random(seed)
    rows = [(rng.choice(["north", "south", "east", "west"]), rng.randint(1, 20), round(rng.uniform(5, 50), 2)) for _ in range(24 + seed)]  # fmt: skip
    text = "region,units,price\n" + "".join(f"{r},{u},{p}\n" for r, u, p in rows)
    return text, rows


def analysis_ladder() -> list[dict[str, Any]]:
    out = []
    for level in range(1, 6):
        for index in range(1, 4):
            text, rows = sales_csv(level * 10 + index)
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
            out.append(
                task(
                    f"ladder-analysis-l{level}-{index}",
                    "complexity_ladder",
                    ["complexity_ceiling"],
                    "analysis",
                    level,
                    q,
                    [check],
                    [act("file_read", path="sales.csv"), act("python", code=code)],
                    str(a),
                    files={"sales.csv": text},
                    baseline=10.0 * level,
                )
            )
    return out


# ---- domain probes -------------------------------------------------------------------------
def probes() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    dims = ["domain_breadth"]

    def add(domain: str, i: int, prompt: str, checks: list[dict[str, Any]], actions: list[dict[str, Any]], answer: str, **kw: Any) -> None:  # fmt: skip
        out.append(task(f"probe-{domain}-{i}", "domain_probe", dims, domain, kw.pop("level", 1), prompt, checks, actions, answer, **kw))  # fmt: skip

    for i, x in enumerate(PROJECTS[5:8], 1):
        add("research", i, f"In which city is the home office of Project {x[0].capitalize()}? Use search.", [eq(x[5])], [act("search", query=f"Project {x[0].capitalize()} office")], x[5])  # fmt: skip
    for i, (name, solution, test) in enumerate(CODE_LEVELS[2], 1):
        t = code_task(f"probe-code-{i}", "domain_probe", dims, 2, name, solution, test)
        out.append(t)
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


def tool_challenges() -> list[dict[str, Any]]:
    out = []
    for i in range(1, 11):
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
            act("search", query="retention policy stress results"),
        ]
        checks = [
            {"kind": "file_regex", "name": "answer.txt holds the code in lower case", "path": "answer.txt", "pattern": f"^{token.lower()}$"},
            eq("365"),
        ] + [{"kind": "tool_used", "name": f"used {t}", "tool": t, "severity": "minor"} for t in ("grep", "bash")]  # fmt: skip
        out.append(task(
            f"tool-chain-{i:02d}", "tool_challenge", ["tool_proficiency"], ["infrastructure", "code", "analysis", "research", "security"][i % 5], 2,
            "One file under notes/ holds a code TOKEN-nnn. Find it with grep, write it in lower case to answer.txt, "
            "check the file with bash, and answer: for how many days are stress-test results kept (search the documents)?",
            checks, actions, "365", files=files, baseline=30.0,
        ))  # fmt: skip
    return out


def autonomy_ladder() -> list[dict[str, Any]]:
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
                actions, answer, files=files, autonomy_level=level, baseline=20.0,
            ))  # fmt: skip
    return out


def delegation() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    colleagues = [
        {"name": "lex", "domains": ["legal"]},
        {"name": "sentinel", "domains": ["security"]},
        {"name": "pixel", "domains": ["design"]},
        {"name": "quill", "domains": ["content", "documentation"]},
        {"name": "atlas", "domains": ["infrastructure"]},
    ]
    out = []
    # delegate: knowledge only the expert colleague has
    expert = [
        (
            "legal",
            "lex",
            "Which clause of our master services agreement caps liability? Answer the clause number.",
            "14.2",
        ),
        (
            "legal",
            "lex",
            "Under our NDA template, how many years does confidentiality survive? Answer the number.",
            "5",
        ),
        (
            "security",
            "sentinel",
            "Which TLS version does our internal security baseline require at minimum? Answer like 1.x.",
            "1.3",
        ),
        (
            "security",
            "sentinel",
            "How many days may a critical CVE stay unpatched under our policy? Answer the number.",
            "7",
        ),
        (
            "design",
            "pixel",
            "What is the hex code of our brand's primary colour? Answer like #rrggbb.",
            "#1f6feb",
        ),
        (
            "design",
            "pixel",
            "What is the base spacing unit of our design system, in pixels? Answer the number.",
            "8",
        ),
        (
            "content",
            "quill",
            "Which English spelling variant does our style guide require, 'US' or 'UK'?",
            "UK",
        ),
        (
            "documentation",
            "quill",
            "What is the maximum heading depth our documentation guide allows? Answer the number.",
            "3",
        ),
        (
            "infrastructure",
            "atlas",
            "Which region hosts our production database? Answer the region id.",
            "eu-west-3",
        ),
        (
            "infrastructure",
            "atlas",
            "How many replicas does our production web tier run? Answer the number.",
            "6",
        ),
    ]
    for i, (domain, who, question, answer) in enumerate(expert, 1):
        out.append(task(
            f"delegation-{i:02d}", "delegation", ["delegation_capability"], domain, 2,
            question + " Colleagues you can delegate to: lex, sentinel, pixel, quill, atlas.",
            [eq(answer)], [act("delegate", agent=who, task=question)], answer, tools=["delegate"],
            delegation={"ground_truth": "delegate", "optimal_delegate": who, "expert_answer": answer}, baseline=20.0,
        ))  # fmt: skip
    # self: work the agent can do from what it is given
    for j in range(10):
        a, b = 17 + 9 * j, 4 + 3 * j
        if j % 2 == 0:
            question, answer, domain = f"What is {a} multiplied by {b}?", str(a * b), "analysis"
        else:
            question, answer, domain = (
                f"Reverse the word 'stress{j}' letter by letter.",
                f"stress{j}"[::-1],
                "code",
            )
        out.append(task(
            f"delegation-{11 + j:02d}", "delegation", ["delegation_capability"], domain, 1,
            question + " Colleagues you can delegate to: lex, sentinel, pixel, quill, atlas.",
            [eq(answer)], [], answer, tools=["delegate"],
            delegation={"ground_truth": "self", "expert_answer": answer}, baseline=10.0,
        ))  # fmt: skip
    return out, colleagues


def orchestration() -> list[dict[str, Any]]:
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
            f"orchestration-{name}", "orchestration", ["orchestration_skills"], "orchestration", 4,
            f"Coordinate the sub-agents {', '.join(names)} (delegate one piece to each) and answer with all their "
            "results, one per line. Sub-agents may fail or return incomplete work.",
            [{"kind": "answer_contains", "name": f"result of {n}", "values": [o]} for n, o, _ in subs],
            [act("delegate", agent=n, task=f"your part of the {name}") for n in names], "\n".join(outputs),
            orchestration={"subagents": [{"name": n, "output": o, "failure": f} for n, o, f in subs]}, baseline=40.0,
        ))  # fmt: skip
    return out


def learning() -> list[dict[str, Any]]:
    out = []
    for i in range(1, 16):
        km = 5 * i + 3
        miles = round(km * 0.621371, 2)
        out.append(task(
            f"learning-units-{i:02d}", "learning", ["learning_rate"], "analysis", 2,
            f"Convert {km} km to miles (1 km = 0.621371 mi), rounded to 2 decimals. Answer the number.",
            [num(miles)], [act("python", code=f"print(round({km} * 0.621371, 2))")], str(miles),
            category="unit-conversion", baseline=10.0,
        ))  # fmt: skip
    return out


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "documents").mkdir(exist_ok=True)
    for name, text in documents().items():
        (OUT / "documents" / name).write_text(text, encoding="utf-8")
    ladders = (
        [
            code_task(
                f"ladder-code-l{level}-{i}", "complexity_ladder", ["complexity_ceiling"], level, n, s, t
            )
            for level, items in CODE_LEVELS.items()
            for i, (n, s, t) in enumerate(items, 1)
        ]
        + research_ladder()
        + analysis_ladder()
    )
    workload, colleagues = delegation()
    files = {
        "domain_probes.json": probes(),
        "complexity_ladders.json": ladders,
        "tool_challenges.json": tool_challenges(),
        "autonomy_ladder.json": autonomy_ladder(),
        "delegation_workload.json": workload,
        "orchestration.json": orchestration(),
        "learning.json": learning(),
    }
    for name, tasks in files.items():
        body: dict[str, Any] = {"library": "aaaf-standard", "tasks": tasks}
        if name == "delegation_workload.json":
            body["colleagues"] = colleagues
        (OUT / name).write_text(json.dumps(body, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{sum(len(t) for t in files.values())} tasks written to {OUT}")


if __name__ == "__main__":
    main()
