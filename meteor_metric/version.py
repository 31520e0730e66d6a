"""The package version (one place: the package, pyproject.toml and every signature read it here)."""

__version__ = "0.1.0"
