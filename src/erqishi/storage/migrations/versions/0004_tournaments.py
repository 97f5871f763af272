"""争霸赛 tournaments: each tournament's state (``tournaments``) and which stored match each
table of a round played (``tournament_matches``).

Existing databases keep every match, hand, run and room; they have no tournaments yet.

Revision ID: 0004
Revises: 0003
Create Date: 2025-03-08 00:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create ``tournaments`` and ``tournament_matches`` with their indexes."""
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("played", sa.Integer(), nullable=False),
        sa.Column("champion", sa.String(length=64), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_tournaments"),
    )
    op.create_index("ix_tournaments_created_id", "tournaments", ["created", "id"])
    op.create_table(
        "tournament_matches",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("round_no", sa.Integer(), nullable=False),
        sa.Column("table_no", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name="fk_tournament_matches_tournament_id_tournaments",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["match_id"], ["web_matches.id"], name="fk_tournament_matches_match_id_web_matches", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("tournament_id", "round_no", "table_no", name="pk_tournament_matches"),
    )
    op.create_index("ix_tournament_matches_match_id", "tournament_matches", ["match_id"], unique=True)


def downgrade() -> None:
    """Drop both tables (every stored tournament; their matches stay in ``web_matches``)."""
    op.drop_index("ix_tournament_matches_match_id", table_name="tournament_matches")
    op.drop_table("tournament_matches")
    op.drop_index("ix_tournaments_created_id", table_name="tournaments")
    op.drop_table("tournaments")
