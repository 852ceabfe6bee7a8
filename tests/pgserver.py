"""A throw-away PostgreSQL server for the tests and benchmarks: Debian's ``postgresql``
package (initdb, pg_ctl), a new cluster in a temporary folder, listening on 127.0.0.1 at a
free port, trust authentication, fsync off. PostgreSQL refuses to run as root (and CI runs
as root), so as root the cluster belongs to ``nobody`` and its programs run through
``setpriv``. ``start()`` returns None when there is no server to be had (no binaries, no
psycopg): the tests that need one skip."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path


def _bin_dir() -> Path | None:
    for candidate in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if Path(candidate, "initdb").is_file() and Path(candidate, "pg_ctl").is_file():
            return Path(candidate)
    found = shutil.which("initdb")
    return Path(found).resolve().parent if found else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    """A running cluster; ``url(db)`` for a database of it, ``new_database()`` for an
    empty one."""

    folder: Path
    port: int
    bin_dir: Path
    as_user: list[str]
    options: str = ""

    @property
    def admin_url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def url(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self, prefix: str = "t") -> str:
        """A new empty database's URL (template0: nothing in it, not even public grants)."""
        import psycopg

        name = f"{prefix}_{uuid.uuid4().hex[:16]}"
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
        return self.url(name)

    def drop_database(self, url: str) -> None:
        import psycopg

        name = url.rsplit("/", 1)[1]
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def pg_ctl(self, *args: str) -> None:
        subprocess.run([*self.as_user, str(self.bin_dir / "pg_ctl"), "-D",
                        str(self.folder / "data"), "-w", "-s", *args],
                       check=True, capture_output=True, timeout=120)

    def stop(self) -> None:
        with contextlib.suppress(subprocess.SubprocessError, OSError):
            self.pg_ctl("stop", "-m", "immediate")
        shutil.rmtree(self.folder, ignore_errors=True)

    # -- faults: the server stopped or killed under a client, then started again ----------
    def postmaster_pid(self) -> int:
        """The server's main process (the first line of ``postmaster.pid``)."""
        return int((self.folder / "data" / "postmaster.pid").read_text().split()[0])

    def start_again(self) -> None:
        """Start the stopped (or killed) cluster again, on the same port: crash recovery
        replays its log, as after a power cut."""
        env = {**os.environ, "LC_ALL": "C.UTF-8", "HOME": str(self.folder)}
        done = subprocess.run([*self.as_user, str(self.bin_dir / "pg_ctl"), "-D",
                               str(self.folder / "data"), "-w", "-s", "-l",
                               str(self.folder / "log"), "-o", self.options, "start"],
                              capture_output=True, env=env, timeout=120, cwd=self.folder)
        if done.returncode != 0:
            log = (self.folder / "log").read_text(errors="replace")[-2000:]
            raise RuntimeError(f"PostgreSQL did not start again: {done.stderr!r}\n{log}")


def _options(folder: Path, port: int, crash_safe: bool) -> str:
    # fsync off: only a crash of the machine loses what was written; synchronous_commit
    # off would also lose the last commits when the server alone is killed
    commit = "" if crash_safe else "-c synchronous_commit=off "
    return (f"-c listen_addresses=127.0.0.1 -c port={port} "
            f"-c unix_socket_directories={folder} -c fsync=off {commit}"
            "-c full_page_writes=off -c max_connections=300")


def start(*, crash_safe: bool = False) -> Server | None:
    """A new server, or None when none can be had here. ``crash_safe``: every commit is
    written out before it is acknowledged (``synchronous_commit`` on), so that a server
    killed and started again still has every commit it acknowledged (the fault tests)."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return None
    bin_dir = _bin_dir()
    if bin_dir is None:
        return None
    folder = Path(tempfile.mkdtemp(prefix="pbem-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            return None
        import pwd

        nobody = pwd.getpwnam("nobody")
        os.chmod(folder, 0o755)
        os.chown(folder, nobody.pw_uid, nobody.pw_gid)
        as_user = [setpriv, f"--reuid={nobody.pw_uid}", f"--regid={nobody.pw_gid}",
                   "--clear-groups", "--"]
    port = _free_port()
    env = {**os.environ, "LC_ALL": "C.UTF-8", "HOME": str(folder)}
    try:
        subprocess.run([*as_user, str(bin_dir / "initdb"), "-D", str(folder / "data"),
                        "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync"],
                       check=True, capture_output=True, env=env, timeout=120, cwd=folder)
        options = _options(folder, port, crash_safe)
        subprocess.run([*as_user, str(bin_dir / "pg_ctl"), "-D", str(folder / "data"), "-w",
                        "-s", "-l", str(folder / "log"), "-o", options, "start"],
                       check=True, capture_output=True, env=env, timeout=120, cwd=folder)
    except (subprocess.SubprocessError, OSError):
        shutil.rmtree(folder, ignore_errors=True)
        return None
    return Server(folder, port, bin_dir, as_user, options)


# -- the suite's second run: every referee home on PostgreSQL -------------------------------
#: ``PBEM_TEST_STORE=postgresql`` (scripts/test.sh's second run): ``init_home`` gives each
#: new home a store of its own on one throw-away server, an empty schema of one database
#: (a database each would cost megabytes and a checkpoint apiece)
STORE_ENV = "PBEM_TEST_STORE"
_shared: Server | None = None


def on_postgresql() -> bool:
    return os.environ.get(STORE_ENV, "") == "postgresql"


def new_store_url() -> str:
    """An empty store for a new home: a new schema, chosen by the URL's search_path."""
    import atexit

    import psycopg

    global _shared
    if _shared is None:
        _shared = start()
        if _shared is None:
            raise RuntimeError(f"{STORE_ENV}=postgresql, but no PostgreSQL server can be "
                               "started here (apt-get install postgresql; pip install "
                               "'.[postgresql]' in the checkout)")
        atexit.register(_shared.stop)
        with psycopg.connect(_shared.admin_url, autocommit=True) as conn:
            conn.execute("CREATE DATABASE pbem_tests TEMPLATE template0")
    schema = f"h_{uuid.uuid4().hex[:16]}"
    with psycopg.connect(_shared.url("pbem_tests"), autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    return _shared.url("pbem_tests") + f"?options=-csearch_path%3D{schema}"
