"""perfectplay.pdn: game records read, replayed and written back."""

import os
import pathlib
import pickle
import random

import pytest

import perfectplay as pp
from perfectplay import _core

#: A published game (Jordan v Tesheliet, Double Corner Dyke) as the PDN 3.0 examples give it,
#: shared with the Rust tests of the record reader.
JORDAN_TESHELIET = (
    pathlib.Path(__file__).resolve().parents[2] / "crates/core/src/record/jordan_tesheliet.pdn"
).read_text(encoding="utf-8")


def test_a_published_game_reads_and_round_trips(tmp_path):
    path = tmp_path / "dyke.pdn"
    path.write_text(JORDAN_TESHELIET, encoding="utf-8")
    (record,) = pp.pdn.read(path)
    assert record.tags["Black"] == "Jordan,A" and record.tags["Event"] == "Double Corner Dyke"
    assert record.result == "*" and record.state.ply() == 48
    moves = [str(m) for m in record.state.history()]
    assert moves[:2] == ["9-14", "22-17"] and moves[46] == "7x16x23"
    assert record.state.game.id == "checkers"
    written = record.to_pdn()
    (again,) = pp.pdn.loads(written)
    assert [str(m) for m in again.state.history()] == moves
    assert again.state == record.state
    assert again.to_pdn() == written
    with path.open(encoding="utf-8") as f:  # an open file works too
        assert pp.pdn.read(f)[0].state == record.state


def test_states_write_and_read_back(game_id, tmp_path):
    game = pp.load_game(game_id)
    rng = random.Random(3)
    states = []
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal() and state.ply() < 60:
            state.apply(rng.choice(state.legal_moves()))
        states.append(state)
    path = tmp_path / "games.pdn"
    pp.pdn.write(path, states[:2], tags={"Event": "test"})
    pp.pdn.write(path, states[2:], append=True)
    records = pp.pdn.read(path)
    assert [r.state for r in records] == states
    assert [r.tags.get("Event") for r in records] == ["test", "test", None]
    # Player 0 moves first: Black in checkers (its `first_player`), White in the morris games.
    first = game.rules().get("first_player", "white")
    for record, state in zip(records, states):
        expected = "*"
        if state.is_terminal():
            returns = state.returns()
            if returns[0] == returns[1]:
                expected = "1/2-1/2"
            else:
                winner = first if returns[0] > returns[1] else {"white": "black", "black": "white"}[first]
                expected = "1-0" if winner == "white" else "0-1"
        assert record.result == expected, (state.fen(), returns if state.is_terminal() else None)


def test_a_setup_position_and_the_result_given():
    game = pp.load_game("checkers")
    state = game.state_from_fen("W:W18,K30:B14,K2")
    state.apply(state.legal_moves()[0])
    text = state.to_pdn([("Event", 'say "hi"')], result="0-1")
    assert '[Event "say \\"hi\\""]' in text and '[Result "0-1"]' in text
    assert '[SetUp "1"]\n[FEN "W:W18,K30:B14,K2"]' in text
    assert text.splitlines()[-1].startswith("1... ")
    (record,) = pp.pdn.loads(text)
    assert record.state == state and record.result == "0-1"
    assert record.tags["Event"] == 'say "hi"'
    with pytest.raises(ValueError, match="result"):
        state.to_pdn(result="2-1")
    with pytest.raises(TypeError, match="tags"):
        state.to_pdn(tags=42)


def test_bad_records_raise_record_error_naming_the_move():
    with pytest.raises(pp.RecordError, match=r"game 1: move 2 \(white\) `17-13`") as caught:
        pp.pdn.loads("1. 11-15 22-17 2. 15-19 17-13 *")
    assert isinstance(caught.value, ValueError)
    with pytest.raises(pp.RecordError, match="game type 20"):
        pp.pdn.loads('[GameType "20"]\n1. 32-28 *')
    with pytest.raises(pp.RecordError, match="never closed"):
        pp.pdn.loads("1. 11-15 {oops")
    nine = pp.load_game("nine_mens_morris").new_initial_state()
    nine.apply("d6")
    text = nine.to_pdn()
    assert '[Game "nine_mens_morris"]' in text
    (record,) = pp.pdn.loads(text)  # the game from its tag
    assert record.state == nine
    with pytest.raises(pp.RecordError, match="a record of nine_mens_morris"):
        pp.pdn.loads(text, game="six_mens_morris")
    with pytest.raises(TypeError):
        pp.pdn.loads(b"1. 11-15 *")


def test_a_byte_order_mark_does_not_hide_the_game_tag():
    state = pp.load_game("nine_mens_morris").new_initial_state()
    state.apply_action(state.legal_actions()[0])
    lines = state.to_pdn().splitlines()
    game_tag = lines.index('[Game "nine_mens_morris"]')
    # The Game tag first, as other programs may write it, behind a byte-order mark.
    text = "\n".join([lines[game_tag]] + lines[:game_tag] + lines[game_tag + 1 :])
    (record,) = pp.pdn.loads("\ufeff" + text)
    assert record.state.game.id == "nine_mens_morris" and record.state == state


def test_a_write_that_fails_leaves_the_file_as_it_was(tmp_path, monkeypatch):
    path = tmp_path / "games.pdn"
    first = pp.load_game("checkers").new_initial_state()
    pp.pdn.write(path, [first])
    before = path.read_text(encoding="utf-8")

    def refuse(*args):
        raise OSError("no space left on device")

    monkeypatch.setattr(pp.pdn.os, "replace", refuse)
    second = first.clone()
    second.apply_action(second.legal_actions()[0])
    for append in (False, True):
        with pytest.raises(OSError, match="no space"):
            pp.pdn.write(path, [second], append=append)
        assert path.read_text(encoding="utf-8") == before
    assert os.listdir(tmp_path) == ["games.pdn"]
    monkeypatch.undo()
    pp.pdn.write(path, [second], append=True)
    assert [r.state for r in pp.pdn.read(path)] == [first, second]


def test_only_the_first_records_tags_choose_the_game():
    text = '[Event "std"]\n1. 11-15 22-18 2. 9-13 *\n\n[Rules "mandatory_capture=false"]\n1. 11-15 *'
    # Game 1 is the standard game, where 9-13 ignores a capture: refused, not read as basic.
    with pytest.raises(pp.RecordError, match="game 1: move 2 .*9-13"):
        pp.pdn.loads(text)
    with pytest.raises(pp.RecordError, match=r'\[Game "foo"\]: unknown game'):
        pp.pdn.loads('[Game "foo"]\n*')
    with pytest.raises(pp.RecordError, match="flying_kings"):
        pp.pdn.loads('[Rules "flying_kings=true"]\n*')


def test_a_rules_tag_setting_an_option_to_two_values_is_refused_in_one_voice():
    twice = '[Rules "mandatory_capture=true mandatory_capture=false"]\n*'
    said = "sets mandatory_capture twice, to different values"
    # Read with the tag choosing the game, and with a game given, the refusal is the same.
    with pytest.raises(pp.RecordError, match=said):
        pp.pdn.loads(twice)
    for game in (pp.load_game("checkers"), pp.load_game("checkers", mandatory_capture=False)):
        with pytest.raises(pp.RecordError, match=said):
            pp.pdn.loads(twice, game)
    assert len(pp.pdn.loads('[Rules "mandatory_capture=false mandatory_capture=False"]\n*')) == 1


def test_commentary_between_games_starts_no_game_and_a_brace_left_open_is_refused():
    records = pp.pdn.loads('{a file header}\n[Event "a"]\n1. 11-15 1-0 {Black resigned}\n')
    assert len(records) == 1 and records[0].result == "1-0"
    with pytest.raises(pp.RecordError, match="comment opened at `{oops"):
        pp.pdn.loads('[Event "a"]\n1. 11-15 {oops *\n\n[Event "b"]\n1. 9-13 *')


def test_tag_names_the_reader_would_refuse_are_refused_when_written():
    state = pp.load_game("checkers").new_initial_state()
    for name in ["Bad Name", "", "Ev]nt"]:
        with pytest.raises(ValueError, match="tag name"):
            state.to_pdn({name: "x"})
    assert pp.pdn.loads(state.to_pdn({"Event_2": "x"}))[0].tags["Event_2"] == "x"


def test_a_forfeited_turn_is_read_played_undone_and_kept():
    # What `perfectplay play --move-time` saves when a player runs out of time.
    text = '[Game "nine_mens_morris"]\n1. d6 -- 2. a7 *'
    (record,) = pp.pdn.loads(text)
    state = record.state
    assert [None if m is None else str(m) for m in state.history()] == ["d6", None, "a7"]
    assert state.ply() == 3 and state.current_player() == 1
    assert " -- " in state.to_pdn()
    (again,) = pp.pdn.loads(state.to_pdn())
    assert again.state == state
    assert pickle.loads(pickle.dumps(state)) == state
    _core._self_check(state)

    made = pp.load_game("nine_mens_morris").new_initial_state()
    made.apply("d6")
    made.forfeit_turn()
    made.apply("a7")
    assert made == state
    assert str(made.undo()) == "a7"
    assert made.undo() is None and made.ply() == 1
    assert made.current_player() == 1
    _core._self_check(made)


def test_a_checkers_forfeit_hands_the_move_to_the_other_side():
    state = pp.load_game("checkers").state_from_fen("B:W18,K30:B14,K2")
    black = state.legal_moves()
    state.forfeit_turn()
    assert state.current_player() == 1 and state.fen().startswith("W:")
    assert state.legal_moves() != black
    _core._self_check(state)
    (again,) = pp.pdn.loads(state.to_pdn())
    assert again.state == state and again.state.history() == [None]
    assert pickle.loads(pickle.dumps(state)) == state
    assert state.undo() is None
    assert state.fen() == pp.load_game("checkers").state_from_fen("B:W18,K30:B14,K2").fen()


def test_a_turn_is_not_forfeited_half_made_or_after_the_end():
    mill = pp.load_game("nine_mens_morris").new_initial_state()
    for move in ["a1", "g7", "a4", "g4"]:
        mill.apply(move)
    mill.apply_action(mill.string_to_action("a7"))
    assert mill.is_mid_turn()
    with pytest.raises(pp.IllegalMoveError, match="half made"):
        mill.forfeit_turn()
    assert mill.is_mid_turn() and mill.ply() == 4

    over = pp.load_game("three_mens_morris").new_initial_state()
    for move in ["a1", "b1", "a2", "b2", "a3"]:
        over.apply(move)
    assert over.is_terminal()
    with pytest.raises(pp.IllegalMoveError, match="over"):
        over.forfeit_turn()


def test_the_game_tag_names_the_game_by_id_or_alias_in_either_family():
    (record,) = pp.pdn.loads('[Game "cowboy_checkers"]\n1. d6 *')
    assert record.state.game.id == "nine_mens_morris" and record.state.ply() == 1
    with pytest.raises(pp.RecordError, match="nine_mens_morris"):
        pp.pdn.loads('[Game "nine_mens_morris"]\n*', game="checkers")
    with pytest.raises(pp.RecordError, match="game 2: .*nine_mens_morris"):
        pp.pdn.loads('1. 11-15 *\n\n[Game "nine_mens_morris"]\n*')


def test_a_variant_is_named_by_its_nearest_preset_and_reads_back(tmp_path):
    game = pp.load_game("nine_mens_morris", ply_limit=200)
    state = game.new_initial_state()
    state.apply("d6")
    text = state.to_pdn()
    assert '[Game "nine_mens_morris"]' in text and '[Rules "ply_limit=200"]' in text
    (record,) = pp.pdn.loads(text)
    assert record.state.game == game and record.state.history() == state.history()
    path = tmp_path / "variant.pdn"
    pp.pdn.write(path, [state])
    assert pp.pdn.read(path)[0].state.game == game
    # Read as the preset itself, the Rules tag names the difference.
    with pytest.raises(pp.RecordError, match="ply_limit=200"):
        pp.pdn.loads(text, game=pp.load_game("nine_mens_morris"))
    # Records written before named the family, with every option in their Rules tag.
    every = " ".join(f"{name}={value}" for name, value in game.rules().items())
    every = every.replace("True", "true").replace("False", "false").replace("None", "none")
    old = text.replace('"nine_mens_morris"', '"morris"').replace("ply_limit=200", every)
    (record,) = pp.pdn.loads(old)
    assert record.state.game == game and record.state.history() == state.history()


def test_a_file_holds_games_of_one_game_as_read_reads_it(tmp_path):
    path = tmp_path / "games.pdn"
    checkers = pp.load_game("checkers").new_initial_state()
    morris = pp.load_game("nine_mens_morris").new_initial_state()
    variant = pp.load_game("nine_mens_morris", ply_limit=200).new_initial_state()
    with pytest.raises(ValueError, match="game 2 is of nine_mens_morris, game 1 of checkers"):
        pp.pdn.write(path, [checkers, morris])
    assert not path.exists()
    with pytest.raises(ValueError, match="one game and rules"):
        pp.pdn.write(path, [morris, variant])
    pp.pdn.write(path, [morris, morris])
    with pytest.raises(ValueError, match="holds games of nine_mens_morris"):
        pp.pdn.write(path, [checkers], append=True)
    pp.pdn.write(path, [morris], append=True)
    assert len(pp.pdn.read(path)) == 3
    # A byte-order mark, or comments with no game yet, do not make a file checkers.
    marked = tmp_path / "marked.pdn"
    marked.write_text(morris.to_pdn(), encoding="utf-8-sig")
    pp.pdn.write(marked, [morris], append=True)
    noted = tmp_path / "noted.pdn"
    noted.write_text("; games of the club night\n{ round 1 }\n", encoding="utf-8")
    pp.pdn.write(noted, [morris], append=True)
    for file in (marked, noted):
        assert [r.state.game.id for r in pp.pdn.read(file)][-1] == "nine_mens_morris"
