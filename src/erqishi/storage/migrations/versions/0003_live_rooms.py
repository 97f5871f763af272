"""Durable rooms: the journal of every room in progress (``live_log``) and the key that
ties a stored match to the live room that played it (``web_matches.live_key``).

Existing databases keep every match and hand; their matches get no ``live_key`` (NULL).

Revision ID: 0003
Revises: 0002
Create Date: 2025-03-01 00:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add ``web_matches.live_key`` (unique) and create ``live_log``."""
    with op.batch_alter_table("web_matches") as batch:
        batch.add_column(sa.Column("live_key", sa.String(length=48), nullable=True))
    op.create_index("ix_web_matches_live_key", "web_matches", ["live_key"], unique=True)
    op.create_table(
        "live_log",
        sa.Column("room", sa.String(length=32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("room", "seq", name="pk_live_log"),
    )


def downgrade() -> None:
    """Drop ``live_log`` (rooms in progress are forgotten) and ``web_matches.live_key``."""
    op.drop_table("live_log")
    op.drop_index("ix_web_matches_live_key", table_name="web_matches")
    with op.batch_alter_table("web_matches") as batch:
        batch.drop_column("live_key")
