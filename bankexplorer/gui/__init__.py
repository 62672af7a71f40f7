"""The explorer window (PySide6 + pyqtgraph): a Document, linked views of it, and editors."""
