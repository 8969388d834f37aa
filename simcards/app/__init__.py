"""Application layer: workflows over experiment and report (see docs/architecture.md)."""
