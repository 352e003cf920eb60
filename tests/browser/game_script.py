"""The 9x9 game the browser tests play by clicking: walls on columns D (Black)
and F (White), a ko in the middle (Black's F5 captures E5; White's retake at
once is refused with the ko message), the ko connected, two passes.

Final position: Black D1-D9, E4 E5 E6 F5 and the 27 points of A-C: 40;
White F1-F4, F6-F9, G5, H3, H7 and the 24 empty points of G-J: 35; E1-E3
and E7-E9 touch both colours.  With komi 7.5: W+2.5.
"""
SIZE = 9
KOMI = 7.5
# (colour, point) in order; None marks where White tries the ko retake
# (refused) before its real move.
MOVES = [
    ("B", "D5"), ("W", "F6"), ("B", "E6"), ("W", "F4"), ("B", "E4"), ("W", "G5"),
    ("B", "D4"), ("W", "E5"), ("B", "F5"),          # 9: Black captures E5
    None,                                            # White's E5 at once: refused (ko)
    ("W", "F3"), ("B", "E5"),                        # 11: Black connects the ko
    ("W", "F7"), ("B", "D3"), ("W", "F2"), ("B", "D6"), ("W", "F8"), ("B", "D7"),
    ("W", "F9"), ("B", "D8"), ("W", "F1"), ("B", "D9"), ("W", "H3"), ("B", "D2"),
    ("W", "H7"), ("B", "D1"),
    ("W", "pass"), ("B", "pass"),
]
CAPTURE_MOVE = 9          # after it: E5 empty (captured), then pixel checks
CAPTURED_POINT = "E5"
KO_RETAKE = ("W", "E5")
EXPECTED_RESULT = "W+2.5"
EXPECTED_BLACK, EXPECTED_WHITE = 40, 35
