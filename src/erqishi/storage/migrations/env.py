"""Alembic's environment for erqishi's tables: web matches and sim runs (``erqishi.storage``).

Run by :func:`erqishi.storage.upgrade` with an open connection in
``config.attributes["connection"]``; or, from a hand-written Alembic config, with a
database URL (or SQLite file path) in ``sqlalchemy.url``.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine, pool

from erqishi.storage.schema import metadata
from erqishi.storage.store import database_urls


def _run_on(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        # SQLite alters tables by copying them; later migrations need the batch mode there
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


def run() -> None:
    """Run the migrations Alembic asked for, online or (``--sql``) offline."""
    config = context.config
    connection = config.attributes.get("connection")
    if isinstance(connection, Connection):
        _run_on(connection)
        return
    url = config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("no database: set sqlalchemy.url, or pass a connection in config.attributes['connection']")
    sync_url = database_urls(url)[1]
    if context.is_offline_mode():
        context.configure(url=sync_url, target_metadata=metadata, literal_binds=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = create_engine(sync_url, poolclass=pool.NullPool)
    try:
        with engine.connect() as conn:
            _run_on(conn)
            conn.commit()
    finally:
        engine.dispose()


# Only an Alembic command sets ``context.config``: importing this file anywhere else (as
# pytest's doctest collection does) runs nothing.
if getattr(context, "config", None) is not None:
    run()
