"""Which reading of a page the stored figures, statuses and texts are: apart from
extractors/page.py, so that a refresh whose pages are all unchanged never imports the
extractors themselves."""

# Bump when any extractor changes what it reads; `evidence reextract` re-runs older pages.
EXTRACTOR_VERSION = "17"
