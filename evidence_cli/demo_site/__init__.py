"""The demo's catalog and sample pages (`evidence demo`), shipped in the wheel as data:
`config/` (its records, whose URLs name `http://sample.invalid`), `pages/` (the sample site) and
`pages-day2/` (the second day's pages)."""
