"""Reading pages: the pool of worker processes, what a worker runs on one page, and the
Dask cluster that can take their place. A worker imports only this room's worker module,
the extractors and the warehouse's row types."""

from flows.reading.cluster import check_scheduler, cluster_runner
from flows.reading.extraction import FEW_PAGES, extract_batch, extract_jobs, start_workers
from flows.reading.worker import Extracted, ExtractJob, run_job

__all__ = [
    "FEW_PAGES",
    "ExtractJob",
    "Extracted",
    "check_scheduler",
    "cluster_runner",
    "extract_batch",
    "extract_jobs",
    "run_job",
    "start_workers",
]
