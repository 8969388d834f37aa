"""Seep's state and configuration slots are declared once (layout.STATE, layout.CONFIG)."""
from simcards.games.seep import layout as L
from simcards.games.seep.rules import CONFIG_FIELDS, cfg_of
from simcards.games.seep.variant import SeepVariant


def test_every_config_slot_is_filled_from_a_variant_field():
    assert set(CONFIG_FIELDS) == set(L.CONFIG.length) and set(CONFIG_FIELDS.values()) <= set(SeepVariant.param_specs())


def test_config_packs_enums_by_their_choices_and_no_cap_as_zero():
    v = SeepVariant(absorption_mode="forbidden", dealer_after_baazi="no_shift", max_deals_per_baazi=None)
    cfg = cfg_of(v)
    assert cfg[L.C_ABSORB] == L.ABSORB.FORBIDDEN and cfg[L.C_AFTER_BAAZI] == L.AFTER_BAAZI.NO_SHIFT and cfg[L.C_MAX_DEALS] == 0
    assert cfg[L.C_FIRST_DEALER] == -1 and cfg[L.C_NPLAYERS] == 4


def test_the_view_is_the_public_part_of_the_state():
    assert L.S_PRIVATE == L.S_NPLAYERS + 1 == L.S_HANDS and L.ST_SIZE == L.S_ERROR + 3
