"""The wheel holds the whole product: built from the source, installed into a fresh
environment, every module imports from it and `evidence --help` runs.

The editable install the other tests use finds modules in the source tree, so a package
missing from the wheel would pass them all; this test reads only the wheel. The new
environment borrows the project environment's third-party packages (a path in a .pth
file, whose own .pth files, the editable finder among them, are not run), so nothing is
downloaded.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# the demo's data: in the first
PACKAGES = ("evidence_cli", "evidence_base", "flows", "extractors", "warehouse")
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc")
PIP = [sys.executable, "-m", "pip", "--quiet", "--disable-pip-version-check"]


def source_modules() -> list[str]:
    """Every module of the five layers, by its dotted name (`__main__`s are not imported:
    they run the command)."""
    names = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__main__":
                continue
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def source_data() -> set[str]:
    """Every file of the five layers that is not Python: migrations, SQL, phrase lists,
    templates."""
    return {
        str(path.relative_to(ROOT))
        for package in PACKAGES
        for path in (ROOT / package).rglob("*")
        if path.is_file() and path.suffix not in (".py", ".pyc") and "__pycache__" not in path.parts
    }


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel, built from a copy of the source (the build leaves nothing in the tree)."""
    source = tmp_path_factory.mktemp("source")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    for package in PACKAGES:
        shutil.copytree(ROOT / package, source / package, ignore=IGNORED)
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [*PIP, "wheel", "--no-deps", "--no-build-isolation", "-w", str(out), str(source)],
        check=True,
        timeout=300,
    )
    (built,) = out.glob("*.whl")
    return built


@pytest.mark.slow
def test_the_wheel_holds_every_module_and_data_file(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    modules = {n.removesuffix(".py").replace("/", ".") for n in names if n.endswith(".py")}
    expected = {m if m in modules else f"{m}.__init__" for m in source_modules()}
    assert expected - modules == set()
    assert source_data() - names == set()


@pytest.mark.slow
def test_the_installed_wheel_imports_and_runs(wheel: Path, tmp_path: Path) -> None:
    env = tmp_path / "env"
    venv.EnvBuilder(with_pip=False).create(env)
    python = env / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (Path(site) / "borrowed.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run(
        [*PIP, "--python", str(python), "install", "--no-deps", "--no-index", str(wheel)],
        check=True,
        timeout=300,
    )
    script = (
        "import importlib, sys\n"
        f"for name in {source_modules()!r}:\n"
        "    importlib.import_module(name)\n"
        "import flows, flows.catalog\n"
        "from evidence_cli.demo import DEMO_DIR, write_demo_config\n"
        "from flows.catalog import load_catalog\n"
        "import tempfile, pathlib\n"
        "tmp = pathlib.Path(tempfile.mkdtemp())\n"
        "demo = load_catalog(write_demo_config(DEMO_DIR / 'config', tmp, 'http://x'))\n"
        "assert len(demo.records) == 3 and (DEMO_DIR / 'pages-day2').is_dir(), DEMO_DIR\n"
        "assert (DEMO_DIR / 'pages/nimbus.example/free-tier.html').is_file(), DEMO_DIR\n"
        "print(DEMO_DIR)\n"
        "print(flows.__file__)\n"
        "print(flows.catalog.__version__)\n"
    )
    out = subprocess.run(
        [str(python), "-c", script],
        capture_output=True,
        text=True,
        cwd=tmp_path,  # not the source tree
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    demo_dir, where, version = out.stdout.split()
    assert Path(where).is_relative_to(Path(site))  # the wheel's copy, not the source's
    assert Path(demo_dir).is_relative_to(Path(site))  # the demo's catalog and pages too
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert version == project["version"]
    helped = subprocess.run(
        [str(env / "bin" / "evidence"), "--help"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert helped.returncode == 0, helped.stderr[-2000:]
    assert "refresh" in helped.stdout and "usage: evidence" in helped.stdout


def test_the_wheel_installs_no_generic_top_level_package(wheel: Path) -> None:
    """Only the layers and the command line's own package, by distinctive names: no `cli`
    or `demo` to collide with other code in the same environment."""
    with zipfile.ZipFile(wheel) as z:
        tops = {n.split("/")[0] for n in z.namelist() if not n.split("/")[0].endswith(".dist-info")}
    assert tops == {"evidence_base", "evidence_cli", "flows", "extractors", "warehouse"}, tops
    with zipfile.ZipFile(wheel) as z:
        assert any(n.startswith("evidence_cli/demo_site/pages/") for n in z.namelist())
