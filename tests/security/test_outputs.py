"""Outputs are written through: a symlink is followed, a device, FIFO or socket is never
replaced (one line, exit 2), `-` is stdout; inside an output folder a symlink never
leads the write out of it. The lock file and `gc` keep to the same rules."""

from __future__ import annotations

import os
import socket
import stat
from pathlib import Path

import pytest
from store_support import T0, Warehouse

from evidence_cli.main import main
from warehouse.lock import refresh_lock


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A warehouse with one kept page."""
    w = Warehouse(tmp_path / "w.duckdb")
    w.catalog({"c": None}, ["p"])
    w.fetch("p", T0, body="<html><p>some words</p></html>")
    w.grade(T0)
    w.con.close()
    return tmp_path / "w.duckdb"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code, _, err = run(capsys, *argv)
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_warc_to_a_fifo_is_refused_and_the_fifo_kept(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    err = refused(capsys, "export", "--warc", str(fifo), "--db", str(db))
    assert "not a regular file" in err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert not list(tmp_path.glob("*.partial")) and not list(tmp_path.glob(".*.partial"))


def device(tmp_path: Path) -> Path:
    """A null device of the test's own (a probe that fails must not replace /dev/null)."""
    if os.geteuid() != 0:
        pytest.skip("making a device node needs root")
    path = tmp_path / "null"
    os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    return path


def test_warc_to_a_device_is_refused(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    null = device(tmp_path)
    err = refused(capsys, "export", "--warc", str(null), "--db", str(db))
    assert "not a regular file" in err
    assert stat.S_ISCHR(os.lstat(null).st_mode)


def test_warc_to_a_socket_is_refused(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "s.sock"
    with socket.socket(socket.AF_UNIX) as s:
        s.bind(str(path))
        refused(capsys, "export", "--warc", str(path), "--db", str(db))
        assert stat.S_ISSOCK(os.lstat(path).st_mode)


def test_warc_through_a_symlink_writes_the_file_it_names(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    real = tmp_path / "real.warc.gz"
    real.write_bytes(b"old")
    link = tmp_path / "link.warc.gz"
    link.symlink_to(real)
    code, _, err = run(capsys, "export", "--warc", str(link), "--db", str(db))
    assert code == 0, err
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_bytes()[:2] == b"\x1f\x8b"  # gzip: the WARC went into the real file


def test_warc_dash_writes_to_stdout(db: Path, capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    code = main(["export", "--warc", "-", "--db", str(db)])
    out = capfdbinary.readouterr()
    assert code == 0, out.err
    assert out.out[:2] == b"\x1f\x8b" and b"WARC/1.1" not in out.err
    assert b"wrote 1 kept page(s)" in out.err
    assert not Path("-").exists()


def test_csv_export_into_proc_self_is_one_line(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    err = refused(capsys, "export", "--format", "csv", "/proc/self", "--db", str(db))
    assert "system" in err


def test_export_into_a_folder_with_a_fifo_named_like_a_view_is_refused(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    os.mkfifo(out / "record_status.csv")
    # a reader of our own, so that a write into the FIFO would not block the test
    reader = os.open(out / "record_status.csv", os.O_RDONLY | os.O_NONBLOCK)
    try:
        refused(capsys, "export", "--format", "csv", str(out), "--db", str(db))
        assert stat.S_ISFIFO(os.lstat(out / "record_status.csv").st_mode)
        assert os.read(reader, 100) == b""  # nothing was written into it
    finally:
        os.close(reader)


def test_site_does_not_follow_a_symlinked_index_out_of_its_folder(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    victim = tmp_path / "bashrc"
    victim.write_text("precious\n")
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").symlink_to(victim)
    code, _, err = run(capsys, "site", "--out", str(site), "--db", str(db))
    assert code == 0, err
    assert victim.read_text() == "precious\n"
    assert not (site / "index.html").is_symlink()
    assert "<html" in (site / "index.html").read_text()


def test_site_into_a_symlinked_folder_writes_where_it_leads(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    real = tmp_path / "real-site"
    real.mkdir()
    (tmp_path / "site").symlink_to(real)
    code, _, err = run(capsys, "site", "--out", str(tmp_path / "site"), "--db", str(db))
    assert code == 0, err
    assert (real / "index.html").is_file() and (real / "records" / "r.html").is_file()


def test_site_with_a_records_folder_leading_out_is_refused(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    site = tmp_path / "site"
    site.mkdir()
    (site / "records").symlink_to(elsewhere)
    refused(capsys, "site", "--out", str(site), "--db", str(db))
    assert not list(elsewhere.iterdir())


def test_the_lock_never_follows_a_planted_symlink(tmp_path: Path) -> None:
    from evidence_base.errors import OutputRefused

    victim = tmp_path / "victim"
    victim.write_text("keep me")
    (tmp_path / "w.duckdb.lock").symlink_to(victim)
    with pytest.raises(OutputRefused, match="symlink"), refresh_lock(tmp_path / "w.duckdb"):
        pass
    assert victim.read_text() == "keep me"


def test_the_lock_never_truncates_a_hard_linked_file(tmp_path: Path) -> None:
    from evidence_base.errors import OutputRefused

    victim = tmp_path / "victim"
    victim.write_text("keep me")
    os.link(victim, tmp_path / "w.duckdb.lock")
    with pytest.raises(OutputRefused), refresh_lock(tmp_path / "w.duckdb"):
        pass
    assert victim.read_text() == "keep me"


def test_gc_compacts_the_file_a_symlink_names_and_keeps_the_link(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    link = tmp_path / "link.duckdb"
    link.symlink_to(db)
    code, out, err = run(capsys, "gc", "--db", str(link))
    assert code == 0, err
    assert link.is_symlink() and os.readlink(link) == str(db)
    code, out, err = run(
        capsys, "sql", "SELECT count(*) AS n FROM snapshots", "--db", str(db), "--format", "csv"
    )
    assert code == 0 and out.splitlines() == ["n", "1"], err


def test_gc_compacts_a_path_holding_a_double_quote(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    quoted = tmp_path / 'my "evidence".duckdb'
    db.rename(quoted)
    code, out, err = run(capsys, "gc", "--db", str(quoted))
    assert code == 0, err
    code, out, err = run(
        capsys, "sql", "SELECT count(*) AS n FROM snapshots", "--db", str(quoted), "--format", "csv"
    )
    assert code == 0 and out.splitlines() == ["n", "1"], err


@pytest.mark.parametrize(
    ("argv", "names"),
    [
        (["export", "--warc", "{out}/pages.warc.gz"], ["pages.warc.gz"]),
        (["export", "--format", "csv", "{out}"], ["record_status.csv", "datapackage.json"]),
        (["site", "--out", "{out}"], ["index.html", "feed.xml"]),
    ],
)
def test_planted_partial_links_beside_an_output_are_never_written_through(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], names: list[str]
) -> None:
    """A `.NAME.partial -> victim` planted where the output goes: the temporary file of
    a write is never at a name one could plant (it is made new, in a folder of its own)."""
    out = tmp_path / "out"
    out.mkdir()
    victim = tmp_path / "victim"
    victim.write_text("keep me")
    for name in names:
        (out / f".{name}.partial").symlink_to(victim)
    code, _, err = run(capsys, *[a.format(out=out) for a in argv], "--db", str(db))
    assert code == 0, err
    assert victim.read_text() == "keep me"
    assert all((out / name).is_file() and not (out / name).is_symlink() for name in names)
    assert not [p for p in out.iterdir() if p.name.endswith(".partial") and p.is_dir()]
