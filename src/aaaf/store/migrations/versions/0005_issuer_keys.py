"""The issuer's signing key in the database, its private half sealed (SCORING.md §7 "Secrets").

Revision ID: 0005_issuer_keys
Revises: 0004_api_keys
Create Date: 2026-11-23

Until now the key was a 0600 file beside the SQLite database, so two workers on two
machines could not share it.  A row per named slot (``issuer``): the RFC 7638 thumbprint
(``kid``), the public key (PEM) and the PKCS#8 private key sealed with AES-256-GCM under
``AAAF_SECRET_KEY`` (``aaaf.secret_box``).  An existing key file is imported on first use
(by the service, not here: a migration has no secret), so badges already issued keep
verifying.  Runs on SQLite and PostgreSQL; column types spelled out literally (see 0001).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005_issuer_keys"
down_revision: str | Sequence[str] | None = "0004_api_keys"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TIMESTAMP = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "issuer_keys",
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("kid", sa.Text(), nullable=False),
        sa.Column("public_pem", sa.Text(), nullable=False),
        sa.Column("private_key_sealed", sa.Text(), nullable=False),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_issuer_keys")),
        sa.UniqueConstraint("kid", name=op.f("uq_issuer_keys_kid")),
    )


def downgrade() -> None:
    op.drop_table("issuer_keys")
