"""Seep's state and move slots are declared once (layout.STATE, layout.MOVE); the kernels read
the variant packed by ``Variant.to_params``, as every game's do."""
from simcards.games.seep import layout as L
from simcards.games.seep.variant import SeepVariant


def test_the_kernel_reads_the_packed_variant_enums_by_their_choices():
    v = SeepVariant(absorption_mode="forbidden", dealer_after_baazi="no_shift", max_deals_per_baazi=None)
    p = v.to_params()[0]
    assert p["absorption_mode"] == L.ABSORB.FORBIDDEN and p["dealer_after_baazi"] == L.AFTER_BAAZI.NO_SHIFT
    assert p["max_deals_per_baazi"] < 0  # no cap (NULL): the kernel caps only a positive count
    assert p["first_dealer"] == -1 and p["num_players"] == 4


def test_the_view_is_the_public_part_of_the_state_then_the_policy_parameters():
    from simcards.core.policy import PARAM_SLOTS
    assert L.S_PRIVATE == L.S_NPLAYERS + 1 == L.S_HANDS
    assert L.S_PARAMS == L.S_ERROR + 3 and L.ST_SIZE == L.S_PARAMS + PARAM_SLOTS


def test_move_columns_are_generated_in_declaration_order():
    assert (L.M_KIND, L.M_CARD, L.M_TARGET, L.M_LOOSE, L.M_HOUSE, L.M_COLS) == (0, 1, 2, 3, 4, 5)
    assert list(L.MOVE.offset) == [name.lower() for name in ("KIND", "CARD", "TARGET", "LOOSE", "HOUSE")]
