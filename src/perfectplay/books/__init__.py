"""Opening books that ship with perfectplay: tablebases of positions solved by search.

``connect-four-7x6``: the 8 positions of the first ply of 7 x 6 Connect Four (16 KB),
made by ``perfectplay book connect-four -p width=7 -p height=6 --depth 1`` in 34 minutes.
"""
