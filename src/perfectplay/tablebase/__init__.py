"""Tablebases: solved games saved to a directory and answered from it, lazily, checked.

``header`` (the format), ``write`` (an explored solve saved), ``build`` (a tiered solve),
``reader`` (``open_tablebase``), ``blocks`` (zstd-compressed tiers), ``verify``. This
package module imports none of them, so that ``solution`` can use ``write`` below it.
"""
