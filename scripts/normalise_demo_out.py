"""Normalise a demo's ``out/`` for comparison across runs (used by scripts/demo_diff.sh).

``python scripts/normalise_demo_out.py OUT_DIR NORMALISED_DIR --days 2026-11-23[,2026-11-24]``

Writes one text file per file of OUT_DIR in which what legitimately differs on every run is
replaced by a placeholder, and nothing else is touched:

* the issuer's key material (drawn at random per run): ``aaaf-issuer.key`` and
  ``aaaf-secret.key`` are left out; the key id, public key and sealed private key read from
  ``aaaf.db`` become ``<kid>``, ``<public key>``, ``<sealed key>`` wherever they appear;
* a JWT (``eyJ…``) becomes its decoded header and claims (normalised), its signature dropped;
* a UUID, dashed or as the store's 32 hex digits, becomes ``<uuid>``; in a file name it
  becomes the name of the agent the id is the badge, assessment or agent of (else ``<uuid>``);
* a wall-clock instant — a timestamp or date on or after the first day the run took
  (``--days``) — becomes ``<run+Nd>`` (N days after that day: ``valid_until`` is such an
  instant plus the validity period); JWT ``iat``/``nbf``/``exp`` likewise.  Evidence
  timestamps, all before the demo's fixed NOW, are kept as they are;
* ``aaaf.db`` becomes ``aaaf.db/<table>.jsonl``, every row as normalised JSON, sorted (an
  event's ``content_digest`` hashes its agent's uuid: a placeholder);
* a badge's pictures show its (random) badge id in the verify URL: the SVG's verify lines,
  the PNG's pixels and the credential's image digests become placeholders; a PNG's other
  chunks are compared (its text chunks normalised);
* the demo log's "done in Ns", the out/ path, and the ``aaaf verify`` of the badge whose
  (random) file name sorts first.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import hashlib
import json
import re
import sqlite3
import struct
import zlib
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

LEFT_OUT = {"aaaf-issuer.key", "aaaf-secret.key"}
UUID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\b", re.I)
UUID_HEX = re.compile(r"\b[0-9a-f]{12}[1-8][0-9a-f]{3}[89ab][0-9a-f]{15}\b")
JWT = re.compile(r"\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*")
INSTANT = re.compile(
    r"\b(\d{4})-(\d{2})-(\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?"
)
EPOCH_CLAIMS = {"iat", "nbf", "exp"}
# columns derived from a random id: an event's content digest hashes its agent's uuid
DIGEST = "<sha256 over the agent's uuid>"
# where a badge sits in the status list follows the order of the (random) agent ids
STATUS_INDEX = re.compile(r'(status-list#|"statusListIndex": "|status bit )\d+')
# a badge's pictures show its badge id (the verify URL, wrapped where the id's glyphs make it
# too wide), so the pixels and the image digests differ with that random id
IMAGE_DIGEST = re.compile(r'("digest": ")[0-9a-f]{64}"')
VERIFY_LINE = re.compile(r'(<text id="verify-\d+"[^>]*>).*?(</text>)')


class Normaliser:
    def __init__(self, first_day: date, secrets: dict[str, str], names: dict[str, str]) -> None:
        self.first_day = first_day
        self.first_epoch = datetime(first_day.year, first_day.month, first_day.day, tzinfo=UTC).timestamp()
        self.secrets = sorted(secrets.items(), key=lambda item: -len(item[0]))
        self.names = names

    def instant(self, match: re.Match[str]) -> str:
        try:
            day = date(int(match[1]), int(match[2]), int(match[3]))
        except ValueError:
            return match[0]
        if day < self.first_day:
            return match[0]
        return f"<run+{(day - self.first_day).days}d>"

    def jwt(self, match: re.Match[str]) -> str:
        parts = match[0].split(".")
        try:
            header, claims = (
                json.loads(base64.urlsafe_b64decode(p + "=" * (-len(p) % 4))) for p in parts[:2]
            )
        except ValueError:
            return match[0]
        shown = json.dumps({"header": self.value(header), "claims": self.value(claims)}, sort_keys=True)
        return f"<jwt {shown}>"

    def text(self, text: str) -> str:
        for secret, placeholder in self.secrets:
            text = text.replace(secret, placeholder)
        text = JWT.sub(self.jwt, text)
        text = UUID.sub("<uuid>", text)
        text = UUID_HEX.sub("<uuid>", text)
        text = STATUS_INDEX.sub(r"\1<status index>", text)
        return INSTANT.sub(self.instant, text)

    def value(self, value: Any, key: str | None = None) -> Any:
        if isinstance(value, dict):
            if key == "imageDigests":
                return {k: {**v, "digest": "<image digest>"} for k, v in value.items()}
            return {self.text(str(k)): self.value(v, str(k)) for k, v in value.items()}
        if isinstance(value, list):
            return [self.value(item) for item in value]
        if isinstance(value, str):
            return self.text(value)
        if key in EPOCH_CLAIMS and isinstance(value, int | float) and value >= self.first_epoch:
            return f"<run+{int((value - self.first_epoch) // 86400)}d>"
        return value

    def file_name(self, name: str) -> str:
        for found in UUID.findall(name):
            name = name.replace(found, self.names.get(found.lower(), "<uuid>"))
        return name


def _as_uuid_text(value: Any) -> str:
    text = str(value)
    if re.fullmatch(r"[0-9a-f]{32}", text):
        return f"{text[:8]}-{text[8:12]}-{text[12:16]}-{text[16:20]}-{text[20:]}"
    return text


def _store_facts(db: Path) -> tuple[dict[str, str], dict[str, str]]:
    """The run's key material (to hide) and, by badge / assessment / agent id, the agent's name."""
    secrets: dict[str, str] = {}
    names: dict[str, str] = {}
    if not db.exists():
        return secrets, names
    connection = sqlite3.connect(db)
    try:
        for kid, public_pem, sealed in connection.execute(
            "SELECT kid, public_pem, private_key_sealed FROM issuer_keys"
        ):
            for text, placeholder in ((kid, "<kid>"), (public_pem, "<public key>"), (sealed, "<sealed key>")):
                if text:
                    secrets[str(text)] = placeholder
            if public_pem:
                body = "".join(line for line in str(public_pem).splitlines() if not line.startswith("-----"))
                if body:
                    secrets[body] = "<public key>"
        agents = {_as_uuid_text(i): name for i, name in connection.execute("SELECT id, name FROM agents")}
        names.update(agents)
        for table in ("assessments", "badges"):
            for row_id, agent_id in connection.execute(f"SELECT id, agent_id FROM {table}"):
                name = agents.get(_as_uuid_text(agent_id))
                if name is not None:
                    names[_as_uuid_text(row_id)] = name
    finally:
        connection.close()
    return secrets, names


def _evidence_by_key(raw: dict[str, Any], keys: dict[str, str]) -> None:
    """An assessment's used events as the events' own (client) keys, not positions in a list
    of random store ids: ``event_ids`` holds each id's 16 bytes, ``dimension_events`` positions."""
    blob = raw["event_ids"]
    ids = [_as_uuid_text(blob[i : i + 16].hex()) for i in range(0, len(blob), 16)]
    named = [keys.get(i, "<unknown event>") for i in ids]
    positions = json.loads(raw["dimension_events"]) if isinstance(raw["dimension_events"], str) else {}
    raw["event_ids"] = sorted(named)
    raw["dimension_events"] = {name: sorted(named[p] for p in at) for name, at in positions.items()}


def _dump_db(db: Path, target: Path, normaliser: Normaliser) -> None:
    target.mkdir(parents=True)
    connection = sqlite3.connect(db)
    try:
        keys = {
            _as_uuid_text(i): DIGEST if key == digest else key
            for i, key, digest in connection.execute("SELECT id, idempotency_key, content_digest FROM events")
        }
        tables = [
            name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        ]
        for table in sorted(tables):
            cursor = connection.execute(f'SELECT * FROM "{table}"')
            columns = [d[0] for d in cursor.description]
            lines = []
            for row in cursor:
                record = {}
                raw = dict(zip(columns, row, strict=True))
                if table == "events":
                    if raw["idempotency_key"] == raw["content_digest"]:
                        raw["idempotency_key"] = DIGEST
                    raw["content_digest"] = DIGEST
                if table == "assessment_evidence":
                    _evidence_by_key(raw, keys)
                for column, value in raw.items():
                    if isinstance(value, bytes):
                        value = "<bytes sha256 " + hashlib.sha256(value).hexdigest() + ">"
                    elif isinstance(value, str) and value[:1] in "[{":
                        with contextlib.suppress(ValueError):
                            value = json.loads(value)
                    record[column] = normaliser.value(value)
                lines.append(json.dumps(record, sort_keys=True, ensure_ascii=False))
            (target / f"{table}.jsonl").write_text("".join(f"{line}\n" for line in sorted(lines)), "utf-8")
    finally:
        connection.close()


def _png(data: bytes, normaliser: Normaliser) -> str:
    out = []
    image = hashlib.sha256()
    offset = 8
    while offset + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[offset : offset + 8])
        body = data[offset + 8 : offset + 8 + length]
        offset += 12 + length
        name = kind.decode("latin-1")
        if name == "IDAT":
            image.update(body)
        elif name in ("tEXt", "zTXt", "iTXt"):
            keyword, _, rest = body.partition(b"\0")
            if name == "zTXt":
                rest = zlib.decompress(rest[1:])
            elif name == "iTXt":
                compressed = rest[0]
                rest = rest[2:]
                _language, _, rest = rest.partition(b"\0")
                _translated, _, rest = rest.partition(b"\0")
                if compressed:
                    rest = zlib.decompress(rest)
            text = rest.decode("utf-8", "replace")
            out.append(f"{name} {keyword.decode('latin-1')}: {normaliser.text(text)}")
        else:
            out.append(f"{name} {len(body)} bytes sha256 {hashlib.sha256(body).hexdigest()}")
    out.append("image data: <pixels showing the badge id>")
    return "\n".join(out) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("target", type=Path)
    parser.add_argument("--days", required=True, help="The UTC days the run took, comma-separated.")
    args = parser.parse_args()
    first_day = min(date.fromisoformat(day) for day in args.days.split(","))
    secrets, names = _store_facts(args.out / "aaaf.db")
    normaliser = Normaliser(first_day, secrets, names)
    for path in sorted(args.out.rglob("*")):
        if not path.is_file() or path.name in LEFT_OUT:
            continue
        relative = path.relative_to(args.out)
        target = args.target / normaliser.file_name(str(relative))
        if path.suffix == ".db":
            _dump_db(path, target, normaliser)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        data = path.read_bytes()
        if path.suffix == ".png":
            target.with_name(target.name + ".txt").write_text(_png(data, normaliser), "utf-8")
            continue
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            target.write_text(f"binary sha256 {hashlib.sha256(data).hexdigest()}\n", "utf-8")
            continue
        text = normaliser.text(text)
        if relative.parts[0] == "badges":
            text = IMAGE_DIGEST.sub(r'\1<image digest>"', text)
            text = VERIFY_LINE.sub(r"\1<verify URL>\2", text)
        if path.name == "demo.log":
            text = re.sub(r"(?<!\S)/\S*?/out(?=/)", "<out>", text)  # where the run wrote out/
            text = re.sub(r"\bdone in \d+s\b", "done in <N>s", text)
            # `aaaf verify` of the first PNG by (random) file name: which agent it shows varies
            text = re.sub(
                r"(?ms)^The credential says:\n.*?^(VALID|INVALID) ",
                r"<verify output of a badge picked at random>\n\1 ",
                text,
            )
        if target.exists():  # two files of one name once normalised: keep both, side by side
            target = target.with_name(f"{target.name}.{hashlib.sha256(text.encode()).hexdigest()[:12]}")
        target.write_text(text, "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
