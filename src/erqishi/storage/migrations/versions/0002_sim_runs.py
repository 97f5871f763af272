"""The runs of ``erqishi sim`` join the schema: ``sim_runs`` and ``sim_hands``.

Before this revision ``erqishi sim`` created these two tables itself (SQLAlchemy's
``create_all``) in files of its own (``erqishi-sim.db``), with the same columns, without
``alembic_version`` and without the web tables. Migrating such a file runs 0001 (the web
tables, which it lacks) and then this revision, which creates each sim table only where
it is missing: an existing one is kept as it is, with its runs.

Revision ID: 0002
Revises: 0001
Create Date: 2025-02-01 00:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import context, op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _existing() -> set[str]:
    """The tables of the schema being migrated (the search path's first schema on
    PostgreSQL); none when only writing SQL (``alembic upgrade --sql``)."""
    if context.is_offline_mode():
        return set()
    return set(sa.inspect(op.get_bind()).get_table_names())


def upgrade() -> None:
    """Create ``sim_runs`` and ``sim_hands`` where they are missing."""
    existing = _existing()
    if "sim_runs" not in existing:
        op.create_table(
            "sim_runs",
            sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
            sa.Column("created", sa.DateTime(timezone=True), nullable=False),
            sa.Column("seed", sa.BigInteger(), nullable=False),
            sa.Column("hands", sa.Integer(), nullable=False),
            sa.Column("bots", sa.JSON(), nullable=False),
            sa.Column("rules", sa.Text(), nullable=False),
            sa.Column("summary", sa.JSON(), nullable=False),
            sa.PrimaryKeyConstraint("id", name="pk_sim_runs"),
        )
    if "sim_hands" not in existing:
        op.create_table(
            "sim_hands",
            sa.Column("run_id", sa.Integer(), nullable=False),
            sa.Column("idx", sa.Integer(), nullable=False),
            sa.Column("seats", sa.JSON(), nullable=False),
            sa.Column("kind", sa.String(length=8), nullable=False),
            sa.Column("winner", sa.Integer(), nullable=True),
            sa.Column("payments", sa.JSON(), nullable=False),
            sa.Column("record", sa.JSON(), nullable=True),
            sa.ForeignKeyConstraint(
                ["run_id"], ["sim_runs.id"], name="fk_sim_hands_run_id_sim_runs", ondelete="CASCADE"
            ),
            sa.PrimaryKeyConstraint("run_id", "idx", name="pk_sim_hands"),
        )


def downgrade() -> None:
    """Drop both tables and every stored run (also those of a file adopted by
    :func:`upgrade`)."""
    op.drop_table("sim_hands")
    op.drop_table("sim_runs")
