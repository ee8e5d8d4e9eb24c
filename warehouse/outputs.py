"""Moved to evidence_base.outputs; kept for one release, for code that imports it here."""

from evidence_base.outputs import dir_in, file_in, output_dir, output_file, replacing, write_text

__all__ = ["dir_in", "file_in", "output_dir", "output_file", "replacing", "write_text"]
