"""The games the companion knows, each a package of its own (a plugin)."""
