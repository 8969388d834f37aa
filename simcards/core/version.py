"""The package version (kept in core so every layer may name it without importing upward)."""

VERSION = "0.1.0"
