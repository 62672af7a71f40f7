"""BankExplorer: see where GPU shared-memory accesses land, which banks collide, and what it costs."""

__version__ = "0.1.0"
