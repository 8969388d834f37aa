"""Figures and strategy reports built from results folders."""
