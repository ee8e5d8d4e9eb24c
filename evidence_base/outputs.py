"""Files written where the user said: through a symlink to the file it names, never over
a device, FIFO or socket, and atomically (a temporary file beside it, then one rename)
where the target is a regular file or a new one.

Inside an output folder a symlink is followed only while it stays inside the folder: a
planted `index.html -> ~/.bashrc` is replaced by the page, never written through.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from evidence_base.errors import OutputRefused

# The kernel's own files: regular in name only (/proc/self/mem), never an output.
_SYSTEM_DIRS = (Path("/proc"), Path("/sys"), Path("/dev"))


def output_file(path: Path) -> Path:
    """The file a write to `path` lands in (its symlinks followed); OutputRefused when that
    is a directory, or any file but a regular one."""
    real = Path(os.path.realpath(path))
    _refuse_system(path, real)
    try:
        mode = os.stat(real).st_mode
    except FileNotFoundError:
        return real
    if stat.S_ISDIR(mode):
        raise OutputRefused(f"{path} is a directory: give a file name")
    if not stat.S_ISREG(mode):
        raise OutputRefused(
            f"{path} is not a regular file (a device, FIFO or socket): it is never "
            "replaced; give the path of a file"
        )
    return real


def output_dir(path: Path) -> Path:
    """The folder `path` names (its symlinks followed), made if missing; OutputRefused
    when it is a file."""
    real = Path(os.path.realpath(path))
    _refuse_system(path, real)
    if real.exists() and not real.is_dir():
        raise OutputRefused(f"{path} is a file: give a directory (made if missing)")
    real.mkdir(parents=True, exist_ok=True)
    return real


def file_in(folder: Path, name: str) -> Path:
    """The file `folder/name` is written as: a symlink is followed only while it stays
    inside `folder`; one that leads out of it is itself replaced."""
    base = Path(os.path.realpath(folder))
    path = base / name
    parent = Path(os.path.realpath(path.parent))
    if not parent.is_relative_to(base):
        raise OutputRefused(f"{folder / name}: its folder leads out of {folder}; remove the link")
    path = parent / path.name
    if path.is_symlink() and not Path(os.path.realpath(path)).is_relative_to(base):
        return path  # the link, not what it names, is replaced
    return output_file(path)


def dir_in(folder: Path, name: str) -> Path:
    """The folder `folder/name`, made if missing; it must stay inside `folder`."""
    base = Path(os.path.realpath(folder))
    if not Path(os.path.realpath(base / name)).is_relative_to(base):
        raise OutputRefused(f"{folder / name}: it leads out of {folder}; remove the link")
    return output_dir(base / name)


@contextmanager
def replacing(target: Path) -> Iterator[Path]:
    """A temporary path beside `target` to write to, renamed over it when the block
    ends well and removed when it fails. `target` comes from output_file or file_in.

    The path is in a folder of our own made beside the target (mkdtemp: a new name,
    created exclusively, ours alone to write in), never a predictable name a planted
    link could stand on."""
    own = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".partial", dir=target.parent))
    partial = own / target.name
    try:
        yield partial
        os.replace(partial, target)
    finally:
        shutil.rmtree(own, ignore_errors=True)


def write_text(target: Path, text: str) -> None:
    with replacing(target) as partial:
        partial.write_text(text, "utf-8")


def _refuse_system(path: Path, real: Path) -> None:
    if any(real.is_relative_to(d) for d in _SYSTEM_DIRS):
        raise OutputRefused(f"{path} is a file of the system ({real}): give a path of your own")
