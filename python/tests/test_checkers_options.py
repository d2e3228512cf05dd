"""The basic game of the Construction Checkers sheet: optional captures and captures that stop
part way, everywhere options go (rules, State, notation, actions, VectorEnv, tables)."""

import numpy as np
import pytest

import perfectplay as pp

BASIC = {"mandatory_capture": False, "complete_jumps": False}
STOP = 128


def test_the_options_are_listed_with_the_standard_defaults():
    names = [option[0] for option in pp.load_game("checkers").rule_options()]
    assert "mandatory_capture" in names and "complete_jumps" in names
    rules = pp.load_game("checkers").rules()
    assert rules["mandatory_capture"] is True and rules["complete_jumps"] is True
    assert pp.load_game("checkers", **BASIC).rules()["mandatory_capture"] is False
    with pytest.raises(ValueError, match="mandatory_capture"):
        pp.load_game("checkers", mandatory_capture="sometimes")


def test_the_stop_action_exists_only_where_a_capture_may_stop():
    assert pp.load_game("checkers").num_distinct_actions() == 128
    assert pp.load_game("checkers", mandatory_capture=False).num_distinct_actions() == 128
    assert pp.load_game("checkers", complete_jumps=False).num_distinct_actions() == 129


def test_a_capture_stopped_part_way_takes_a_jump_then_stop():
    game = pp.load_game("checkers", **BASIC)
    state = game.state_from_fen("W:W27:B23,14")
    assert [str(m) for m in state.legal_moves()] == ["27x18", "27x18x9", "27-24"]
    first = state.string_to_action("27x18")
    state.apply_action(first)
    assert state.is_mid_turn()
    assert state.legal_actions() == [state.string_to_action("18x9"), STOP]
    assert state.action_to_string(STOP) == "stop"
    assert state.legal_action_mask().shape == (129,)
    state.apply_action(STOP)
    assert not state.is_mid_turn()
    assert state.fen() == "B:W18:B14"
    assert [str(m) for m in state.history()] == ["27x18"]


def test_moves_are_read_and_turned_into_actions_under_the_rules():
    game = pp.load_game("checkers", **BASIC)
    state = game.state_from_fen("W:W27:B23,14")
    moves = {str(m): m for m in state.legal_moves()}
    jump, on = game.string_to_action("27x18"), game.string_to_action("18x9")
    assert state.move_actions(moves["27x18"]) == [jump, STOP]
    assert state.move_actions(moves["27x18x9"]) == [jump, on]
    state.apply("27-24")
    assert state.fen() == "B:W24:B14,23"
    standard = pp.load_game("checkers").state_from_fen("W:W27:B23,14")
    with pytest.raises(ValueError, match="not a legal move"):
        standard.apply("27-24")
    with pytest.raises(ValueError, match="not a legal move"):
        standard.apply("27x18")


def test_perft_counts_every_prefix_and_every_declined_capture():
    # Counts found by the slow reference generator in the Rust tests.
    for rules, count in [
        (BASIC, 190_647),
        ({"mandatory_capture": False}, 189_143),
        ({"complete_jumps": False}, 37_205),
        ({}, 36_768),
    ]:
        game = pp.load_game("checkers", **rules)
        assert game.perft(game.new_initial_state(), 6) == count, rules


def test_basic_game_tables_open_only_under_their_rules(tmp_path):
    out = tmp_path / "basic"
    pp.tablebase.build("checkers", out, max_pieces=3, progress=False, **BASIC)
    with pp.tablebase.open(out) as tb:
        assert tb.game == pp.load_game("checkers", **BASIC)
        state = tb.game.state_from_fen("W:W27:B23,14")
        value = tb.probe(state)
        assert value.wdl == 1 and value.plies == 1
        # Every move of the basic game is valued: the whole capture wins, stopping part way
        # or declining it does not.
        values = {str(mv): probe.wdl for mv, probe in tb.move_values(state)}
        assert values == {"27x18x9": 1, "27x18": -1, "27-24": -1}
        # A state of the standard game is not probed in them: its captures are other moves.
        standard = pp.load_game("checkers").state_from_fen("W:W27:B23,14")
        with pytest.raises(pp.TablebaseError, match="rules must agree"):
            tb.probe(standard)
        with pytest.raises(pp.TablebaseError, match="rules must agree"):
            tb.best_moves(standard)
        # Rules that change no position's value (the ply limit, who moves first) are accepted.
        other = pp.load_game("checkers", ply_limit=50, first_player="white", **BASIC)
        assert tb.probe(other.state_from_fen("W:W27:B23,14")).wdl == 1
    with pytest.raises(pp.TablebaseError, match="rules"):
        with pp.tablebase.open(out, "checkers") as tb:
            tb.probe(pp.load_game("checkers").state_from_fen("W:W27:B23,14"))


def test_a_basic_game_record_reads_back_with_its_rules():
    game = pp.load_game("checkers", **BASIC)
    state = game.state_from_fen("W:W27:B23,14")
    state.apply("27x18")
    text = state.to_pdn()
    assert '[Rules "mandatory_capture=false complete_jumps=false"]' in text
    (record,) = pp.pdn.loads(text)
    assert record.state.game == game
    assert [str(m) for m in record.state.history()] == ["27x18"]
    with pytest.raises(pp.RecordError, match="mandatory_capture=false"):
        pp.pdn.loads(text, pp.load_game("checkers"))


def test_rule_values_are_ints_of_any_integer_type_never_floats():
    assert pp.load_game("checkers", ply_limit=np.int64(5)) == pp.load_game("checkers", ply_limit=5)
    assert pp.load_game("checkers", ply_limit=np.uint8(0)).rules()["ply_limit"] is None
    for bad in (5.0, np.float64(5), [5]):
        with pytest.raises(ValueError, match="ply_limit"):
            pp.load_game("checkers", ply_limit=bad)
