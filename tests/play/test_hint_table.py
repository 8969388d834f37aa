"""The bid hint of `simcards play` fits an 80-column terminal and keeps what a player decides by."""
import pandas as pd

from simcards.app.play import fit_columns


def spades_like_table(rows: int = 15) -> pd.DataFrame:
    """The columns of `simcards bid spades`, with values as wide as the real ones."""
    return pd.DataFrame({
        "bid": ["BN (if blind)"] + [str(k) for k in range(1, rows)],
        "P(makes)": [0.982] * rows, "makes 95% CI": ["[0.966, 0.992]"] * rows,
        "P(nil made)": [""] * rows, "P(partner makes)": [""] * rows, "P(own tricks>=bid)": [0.976] * rows,
        "team points": [-112.7] * rows, "points 95% CI": ["[-117.4, -108.1]"] * rows,
        "own tricks": [5.246] * rows, "team bags": [2.176] * rows, "recommended": ["yes"] + [""] * (rows - 1),
    })


def test_table_fits_80_columns_and_keeps_the_deciding_columns():
    table = spades_like_table()
    assert max(len(line) for line in table.to_string(index=False).splitlines()) > 120  # too wide as it is
    text, left_out = fit_columns(table, 80)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    header = lines[0]
    for column in ("bid", "recommended", "team points", "points 95% CI", "P(makes)"):
        assert column in header
    assert header.index("bid") < header.index("P(makes)") < header.index("team points")  # the table's own order
    assert "P(nil made)" not in header and "P(nil made)" not in left_out  # empty: dropped, not "left out"
    assert set(left_out) | {"bid", "recommended", "team points", "points 95% CI", "P(makes)"} <= set(table.columns)
    assert len(lines) == len(table) + 1  # every option is still there


def test_a_narrow_table_is_shown_whole():
    table = pd.DataFrame({"bid": ["1", "2"], "P(makes)": [0.5, 0.25], "recommended": ["yes", ""]})
    text, left_out = fit_columns(table, 80)
    assert left_out == [] and text == table.to_string(index=False)
