"""Board toolkit: compiled helpers for the bit boards games are written with.

A user's compiled rules import them by name (``from perfectplay.boards.square import
least_pair``) and call them as their own helpers: each is a ``Kernel``, compiled with the
rules that call it, and plain Python when the rules run as plain Python. Each module holds
one board: ``square`` (n x n grids, the eight symmetries of the square), ``hexagon``
(hexagons of side 2 to 5, their twelve symmetries), ``morris`` (the 24- and 16-point
Morris boards: lines, neighbours, mills, their 16 symmetries). ``byte_tables`` makes the
tables all three look a board's images up in, a byte at a time.
"""
