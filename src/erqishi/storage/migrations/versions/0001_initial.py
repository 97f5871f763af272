"""The web server's first tables: matches and their hands.

Revision ID: 0001
Revises:
Create Date: 2025-01-01 00:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create ``web_matches`` and ``web_hands`` with their indexes."""
    op.create_table(
        "web_matches",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("room", sa.String(length=16), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished", sa.DateTime(timezone=True), nullable=True),
        sa.Column("preset", sa.String(length=32), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("totals", sa.JSON(), nullable=False),
        sa.Column("leaders", sa.JSON(), nullable=True),
        sa.Column("record", sa.JSON(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_web_matches"),
    )
    op.create_index("ix_web_matches_created_id", "web_matches", ["created", "id"])
    op.create_index("ix_web_matches_room", "web_matches", ["room"])
    op.create_table(
        "web_hands",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("idx", sa.Integer(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("quan", sa.Integer(), nullable=True),
        sa.Column("dealer", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("payments", sa.JSON(), nullable=False),
        sa.Column("record", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["web_matches.id"], name="fk_web_hands_match_id_web_matches", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_web_hands"),
        sa.UniqueConstraint("match_id", "idx", name="uq_web_hands_match_id_idx"),
    )


def downgrade() -> None:
    """Drop both tables (and every stored match and hand)."""
    op.drop_table("web_hands")
    op.drop_index("ix_web_matches_room", table_name="web_matches")
    op.drop_index("ix_web_matches_created_id", table_name="web_matches")
    op.drop_table("web_matches")
