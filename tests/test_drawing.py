"""The drawing helpers games' ``draw_svg`` uses (``perfectplay.drawing``), read back as XML:
the explorer's contract (one ``<svg>``, clickable cells carrying ``data-move``, the last
move's cell of class ``last``)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.drawing import CELL, letter_grid

SVG = "{http://www.w3.org/2000/svg}"


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.data())
def test_a_letter_grid_draws_each_cell_with_its_mark_move_and_turn(
    columns: int, rows: int, data: st.DataObject
) -> None:
    """Each cell a rect at its place (row by row), clickable exactly where a move is given;
    each non-empty mark a text, turned round exactly where asked; the last cell ringed."""
    size = columns * rows
    marks = data.draw(st.lists(st.sampled_from(["", "L", "g", "<&>"]), min_size=size,
                               max_size=size))  # fmt: skip
    moves = data.draw(st.dictionaries(st.integers(0, size - 1), st.sampled_from(["a1", "G*B2"])))
    turned = data.draw(st.lists(st.booleans(), min_size=size, max_size=size))
    last = data.draw(st.none() | st.integers(0, size - 1))
    root = ET.fromstring(letter_grid(columns, marks, moves, last=last, turned=turned,
                                     note="sente to move"))  # fmt: skip
    assert root.tag == f"{SVG}svg"
    cells = root.findall(f"{SVG}rect")
    assert len(cells) == size
    for q, cell in enumerate(cells):
        assert (float(cell.get("x", "")), float(cell.get("y", ""))) == (
            q % columns * CELL,
            q // columns * CELL,
        )
        assert cell.get("data-move") == moves.get(q)
        assert ("last" in cell.get("class", "").split()) == (q == last)
    texts = [t for t in root.findall(f"{SVG}text") if t.get("class") == "mark"]
    shown = [q for q in range(size) if marks[q]]
    assert [t.text for t in texts] == [marks[q] for q in shown]
    assert [t.get("transform") is not None for t in texts] == [turned[q] for q in shown]
    notes = [t.text for t in root.findall(f"{SVG}text") if t.get("class") == "note"]
    assert notes == ["sente to move"]
