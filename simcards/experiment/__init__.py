"""Experiments: spec -> plan -> run (threads or Dask) -> store -> statistics."""
