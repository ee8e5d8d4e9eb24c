"""The figures grammar, by concern; extractors/numbers.py reads a page with it."""
