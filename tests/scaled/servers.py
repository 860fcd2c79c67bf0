"""Private PostgreSQL and Redis servers on loopback, for the scaled-mode tests and the load test.

Servers named by LIBRARIAN_TEST_POSTGRES_URL / LIBRARIAN_TEST_REDIS_URL are
used as they are (a CI service, say). Otherwise each server is started from
Debian's binaries in a temporary folder on a free loopback port and removed
afterwards; missing binaries are installed with apt when running as root.
"""

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

PG_USER = "librarian"
APT_PACKAGES = ["postgresql", "redis-server"]


class Unavailable(Exception):
    """The servers cannot be had on this machine; the message says why."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=_version)
    return Path(found[-1]).parent if found else None


def _version(path: str) -> int:
    part = path.split("/")[4]
    return int(part) if part.isdigit() else 0


def ensure_binaries() -> None:
    """Install PostgreSQL and Redis with apt if they are missing and this is root."""
    if pg_bin() and shutil.which("redis-server"):
        return
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        raise Unavailable("PostgreSQL and redis-server are not installed (apt-get install "
                          + " ".join(APT_PACKAGES) + ").")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    install = ["apt-get", "install", "-y", "-q", "--no-install-recommends", *APT_PACKAGES]
    if subprocess.run(install, env=env, capture_output=True).returncode != 0:
        subprocess.run(["apt-get", "update", "-q"], env=env, capture_output=True)
        result = subprocess.run(install, env=env, capture_output=True, text=True)
        if result.returncode != 0:
            raise Unavailable(f"apt-get could not install {APT_PACKAGES}: {result.stderr[-500:]}")


def _wait_for_port(port: int, process: subprocess.Popen, what: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise Unavailable(f"{what} exited at start (code {process.returncode}).")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return
        time.sleep(0.1)
    raise Unavailable(f"{what} did not listen on port {port} within {seconds} s.")


def _wait_for_connection(url: str, seconds: float = 30) -> None:
    import psycopg

    deadline = time.monotonic() + seconds
    while True:
        try:
            psycopg.connect(url + "/postgres").close()
            return
        except psycopg.OperationalError:  # "the database system is starting up"
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


@contextlib.contextmanager
def postgres():
    """Yield the URL of a PostgreSQL server whose user may create databases."""
    url = os.environ.get("LIBRARIAN_TEST_POSTGRES_URL")
    if url:
        yield url.rstrip("/")
        return
    ensure_binaries()
    # initdb refuses to run as root: root runs the server as the postgres user.
    user = "postgres" if os.geteuid() == 0 else None
    with tempfile.TemporaryDirectory(prefix="librarian-pg-") as folder:
        data = Path(folder) / "data"
        if user:
            os.chown(folder, pwd.getpwnam(user).pw_uid, pwd.getpwnam(user).pw_gid)
        subprocess.run(
            [pg_bin() / "initdb", "-D", data, "-U", PG_USER, "--auth=trust",
             "--encoding=UTF8", "--locale=C.UTF-8"],
            user=user, check=True, capture_output=True,
        )
        port = free_port()
        # A throwaway server: durability is traded for speed.
        options = [f"-p{port}", "-clisten_addresses=127.0.0.1", "-cunix_socket_directories=",
                   "-cfsync=off", "-csynchronous_commit=off", "-cfull_page_writes=off",
                   "-cmax_connections=200"]
        log = open(Path(folder) / "postgres.log", "wb")
        server = subprocess.Popen([pg_bin() / "postgres", "-D", data, *options],
                                  user=user, stdout=log, stderr=subprocess.STDOUT)
        try:
            _wait_for_port(port, server, "PostgreSQL")
            url = f"postgres://{PG_USER}@127.0.0.1:{port}"
            _wait_for_connection(url)
            yield url
        finally:
            server.terminate()  # smart shutdown would wait for clients; this is "fast"
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
            log.close()


@contextlib.contextmanager
def redis():
    """Yield the URL of a Redis server."""
    url = os.environ.get("LIBRARIAN_TEST_REDIS_URL")
    if url:
        yield url
        return
    ensure_binaries()
    with tempfile.TemporaryDirectory(prefix="librarian-redis-") as folder:
        port = free_port()
        server = subprocess.Popen(
            ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", folder, "--logfile", f"{folder}/redis.log"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        try:
            _wait_for_port(port, server, "Redis")
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            server.terminate()
            server.wait(30)


def create_database(server_url: str, name: str, template: str = "") -> str:
    """Create database name (a copy of template if given); return its URL."""
    import psycopg

    copy = f' TEMPLATE "{template}"' if template else ""
    with psycopg.connect(server_url + "/postgres", autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        for _ in range(50):
            try:
                connection.execute(f'CREATE DATABASE "{name}"{copy}')
                break
            except psycopg.errors.ObjectInUse:
                time.sleep(0.1)  # the last user of the template is still disconnecting
        else:
            raise Unavailable(f"the template database {template} stays in use")
    return f"{server_url}/{name}"


def drop_database(server_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(server_url + "/postgres", autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
