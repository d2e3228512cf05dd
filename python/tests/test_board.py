"""The notebook board (perfectplay.board), driven through its model as the browser drives it:
clicks and moves in, synced traits out. Small tables are built once per module."""

import os
import re
import shutil

import pytest

pytest.importorskip("anywidget")

import perfectplay as pp
from perfectplay.board import PlayBoard

# Positions of the tests, each in the tables built below.
THREE_MOVING = "W../.WB/B.B w 1 0 0 - -"  # White places its last man.
THREE_MEN_MOVE = "W.W/.BB/WB. w 0 0 0 - -"  # All placed: men move.
NINE_MILL = ".W./.W./..B/.W...B/.../.B./... w 0 0 0 - -"  # b4-d5 closes a mill.
CHECKERS_DOUBLE_JUMP = "B:WK19,K26:BK30"  # Black's only move: 30x23x16.


@pytest.fixture(scope="module")
def three(tmp_path_factory):
    out = tmp_path_factory.mktemp("three_mens_morris")
    pp.tablebase.build("three_mens_morris", out, whole_game=True, progress=False)
    with pp.tablebase.open(out) as tb:
        yield tb


@pytest.fixture(scope="module")
def nine(tmp_path_factory):
    out = tmp_path_factory.mktemp("nine_mens_morris")
    pp.tablebase.build("nine_mens_morris", out, max_men=3, progress=False)
    with pp.tablebase.open(out) as tb:
        yield tb


@pytest.fixture(scope="module")
def checkers(tmp_path_factory):
    out = tmp_path_factory.mktemp("checkers")
    pp.tablebase.build("checkers", out, max_pieces=3, progress=False)
    with pp.tablebase.open(out) as tb:
        yield tb


def shown_values(board):
    return [(m["move"], m["wdl"], m["plies"]) for m in board.moves]


def table_values(tb, state):
    return [(str(m), p.wdl, p.plies) for m, p in tb.move_values(state)]


def click_area_center(board, point):
    """The center of the transparent square that takes `point`'s clicks in the SVG."""
    found = re.search(
        rf'<rect class="pp-hit" data-point="{point}" x="([\d.]+)" y="([\d.]+)" '
        r'width="([\d.]+)" height="([\d.]+)"',
        board.svg,
    )
    assert found, point
    x, y, w, h = map(float, found.groups())
    return x + w / 2, y + h / 2


def man_centers(svg):
    return {
        (float(x), float(y))
        for x, y in re.findall(r'<circle class="(?:man|king) \w+" data-point="[^"]+" cx="(\d+)" cy="(\d+)"', svg)
    }


# Where a click lands.


def test_click_areas_sit_on_the_drawn_morris_men(three):
    board = PlayBoard(three, seed=0)
    board.click("c1")
    white, black = board.history
    assert click_area_center(board, white) in man_centers(board.svg)
    assert click_area_center(board, black) in man_centers(board.svg)
    assert click_area_center(board, "b2") not in man_centers(board.svg)


def test_click_areas_sit_on_the_drawn_checkers_pieces(checkers):
    board = PlayBoard(checkers, start="B:W30:BK4")
    assert man_centers(board.svg) == {
        click_area_center(board, "30"),
        click_area_center(board, "4"),
    }


def test_every_point_has_one_focusable_click_area(nine, checkers):
    for tb in (nine, checkers):
        board = PlayBoard(tb, seed=0)
        names = re.findall(r'class="pp-hit" data-point="([^"]+)"', board.svg)
        assert names == tb.game.point_names()
        assert board.svg.count('tabindex="0"') == len(names)


# Playing.


def test_the_start_is_the_game_start_where_the_tables_hold_it(three):
    board = PlayBoard(three)
    assert board.state == three.game.new_initial_state()
    assert board.status.startswith("your move (White): win")


def test_a_start_under_history_rules_of_its_own_is_the_tables_to_accept(three, checkers):
    # The ply limit changes no value: the tables take the state as it is.
    longer = pp.load_game("three_mens_morris", ply_limit=50).new_initial_state()
    board = PlayBoard(three, start=longer)
    assert board.state.game == longer.game
    with pytest.raises(pp.TablebaseError, match="a state of three_mens_morris cannot be probed in tables of checkers"):
        PlayBoard(checkers, start=longer)


def test_a_start_with_a_forfeited_turn_shows_it_in_the_history(three):
    start = three.game.new_initial_state()
    start.forfeit_turn()
    board = PlayBoard(three, start=start, seed=0)
    assert board.history[0] == "--"


def test_a_click_on_an_empty_point_places_a_man_and_the_opponent_replies_best(three):
    board = PlayBoard(three, seed=3)
    board.click("b2")
    placed, reply = board.history
    assert placed == "b2"
    after_placement = three.game.new_initial_state()
    after_placement.apply("b2")
    values = table_values(three, after_placement)
    best = values[0][1:]
    assert (reply, *best) in values, "the reply keeps the best value and distance"
    assert board.message == f"you played b2; Black replied {reply}"
    assert board.message_kind == "info"


def test_the_values_shown_are_the_tables_move_values(three, checkers):
    board = PlayBoard(three, seed=0)
    assert shown_values(board) == table_values(three, board.state)
    board.click("b2")
    assert shown_values(board) == table_values(three, board.state)
    board = PlayBoard(checkers, seed=0)
    assert shown_values(board) == table_values(checkers, board.state)
    best = board.moves[0]
    assert best["best"] and best["label"] == f"{best['result']} in {best['plies']} plies"
    assert board.status.endswith(best["label"])


def test_an_illegal_click_is_refused_with_a_message(three):
    board = PlayBoard(three, seed=0)
    board.click("b2")
    before = board.state
    occupied = board.history[1]
    board.click(occupied)
    assert board.state == before
    assert board.message_kind == "refused"
    assert f"no move of yours starts at {occupied}" in board.message
    board.click("z9")
    assert board.message_kind == "refused" and "'z9' is no point" in board.message
    board.click("a3")
    assert board.message_kind == "info" and board.history[2] == "a3"


def test_a_move_is_its_man_then_its_destination(three):
    board = PlayBoard(three, start=THREE_MEN_MOVE, seed=0)
    state = three.game.state_from_fen(THREE_MEN_MOVE)
    legal = {str(m) for m in state.legal_moves()}
    start = next(m.split("-")[0] for m in sorted(legal))
    board.click(start)
    assert board.selection == [start]
    assert board.targets == [
        p for p in three.game.point_names() if f"{start}-{p}" in legal
    ]
    assert board.svg.count('class="pp-selected"') == 1
    assert board.svg.count('class="pp-target"') == len(board.targets)
    destination = board.targets[0]
    board.click(destination)
    assert board.history[0] == f"{start}-{destination}"
    assert board.selection == []


def test_clicking_the_chosen_point_again_takes_it_back(three):
    board = PlayBoard(three, start=THREE_MEN_MOVE, seed=0)
    board.click("a3")
    assert board.selection == ["a3"]
    board.click("a3")
    assert board.selection == [] and board.history == []
    assert "pp-selected" not in board.svg


def test_a_click_on_another_own_man_chooses_it_instead(three):
    board = PlayBoard(three, start=THREE_MEN_MOVE, seed=0)
    board.click("a3")
    board.click("c3")
    assert board.selection == ["c3"]


def test_a_placement_of_the_last_man_in_hand(three):
    board = PlayBoard(three, start=THREE_MOVING, seed=0)
    board.click("b3")
    assert board.history[0] == "b3"


def test_a_mill_takes_one_more_click_on_the_man_to_remove(nine):
    board = PlayBoard(nine, start=NINE_MILL, seed=0)
    assert board.moves[0]["label"] == "win in 1 ply"
    board.click("b4")
    board.click("d5")
    assert board.selection == ["b4", "d5"] and board.history == []
    assert board.targets == ["e5", "g4", "d2"]
    board.click("a1")  # An empty point.
    assert board.message_kind == "refused" and "does not continue b4-d5" in board.message
    assert board.selection == ["b4", "d5"]
    board.click("g4")
    assert board.history == ["b4-d5xg4"]
    assert board.over and board.moves == []
    assert board.status == "game over: White wins (no men), you win"
    board.click("a1")
    assert board.message_kind == "refused" and "game is over" in board.message


@pytest.fixture(scope="module")
def optional_capture(tmp_path_factory):
    """The 16-point board with four men a side, where a capture may be declined."""
    out = tmp_path_factory.mktemp("optional_capture")
    pp.tablebase.build(
        "six_mens_morris", out, whole_game=True, progress=False, men=4, capture="optional"
    )
    with pp.tablebase.open(out) as tb:
        yield tb


def test_a_declined_capture_is_a_second_click_on_the_mill(optional_capture):
    start = "..W/WW./B.W./.../BBB w 0 0 0 - -"  # d3-d4 closes b4-c4-d4.
    board = PlayBoard(optional_capture, start=start, seed=0)
    assert shown_values(board) == table_values(optional_capture, board.state)
    board.click("d3")
    board.click("d4")
    assert board.selection == ["d3", "d4"] and board.history == []
    assert board.message_kind == "info" and "again to take nothing" in board.message
    assert board.targets == ["a3"]  # a1-c1-e1 is a mill, safe while a3 stands
    board.click("d4")
    assert board.history[0] == "d3-d4"
    # A placement that closes a mill: the second click on its point takes nothing.
    board = PlayBoard(optional_capture, start="..W/WW./B.../.../.BB w 1 1 0 - -", seed=0)
    board.click("d4")
    assert board.selection == ["d4"] and "again to take nothing" in board.message
    board.click("d4")
    assert board.history[0] == "d4"


def test_a_checkers_double_jump_goes_through_its_landing_square(checkers):
    board = PlayBoard(checkers, start=CHECKERS_DOUBLE_JUMP, seed=0)
    assert shown_values(board) == table_values(checkers, board.state)
    board.click("30")
    assert board.targets == ["23"]
    board.click("16")  # Not the landing square that comes first.
    assert board.message_kind == "refused" and board.selection == ["30"]
    board.click("23")
    assert board.targets == ["16"] and board.history == []
    board.click("16")
    assert board.history == ["30x23x16"]
    assert board.status.startswith("game over: Black wins")


@pytest.fixture(scope="module")
def basic_checkers(tmp_path_factory):
    out = tmp_path_factory.mktemp("basic_checkers")
    pp.tablebase.build(
        "checkers", out, max_pieces=3, progress=False, mandatory_capture=False, complete_jumps=False
    )
    with pp.tablebase.open(out) as tb:
        yield tb


def test_a_capture_that_may_stop_stops_at_a_second_click_on_its_landing(basic_checkers):
    board = PlayBoard(basic_checkers, start=CHECKERS_DOUBLE_JUMP, seed=0)
    board.click("30")
    assert "23" in board.targets and len(board.targets) > 1  # Steps too: capturing is optional.
    board.click("23")
    assert board.selection == ["30", "23"] and board.targets == ["16"]
    assert "click 23 again to stop" in board.message
    board.click("23")
    assert board.history[0] == "30x23"
    whole = PlayBoard(basic_checkers, start=CHECKERS_DOUBLE_JUMP, seed=0)
    for point in ["30", "23", "16"]:
        whole.click(point)
    assert whole.history[0] == "30x23x16"


def test_a_move_from_the_list(three):
    board = PlayBoard(three, seed=0)
    board.play("a3")
    assert board.history[0] == "a3" and len(board.history) == 2
    board.play("a3")
    assert board.message_kind == "refused" and "a3 is not a legal move" in board.message


def test_undo_takes_back_the_move_and_the_reply(three):
    board = PlayBoard(three, seed=0)
    start_svg, start_moves = board.svg, board.moves
    board.click("b2")
    assert board.can_undo
    board.undo()
    assert board.history == [] and not board.can_undo
    assert board.state == three.game.new_initial_state()
    assert (board.svg, board.moves) == (start_svg, start_moves)
    board.undo()
    assert board.message_kind == "refused" and board.message == "nothing to undo"


def test_the_person_may_play_second(three):
    board = PlayBoard(three, player=1, seed=0)
    assert len(board.history) == 1, "the opponent opened"
    assert board.status.startswith("your move (Black)")
    assert not board.can_undo
    board.click(board.moves[0]["move"])
    assert len(board.history) == 3
    board.new_game()
    assert len(board.history) == 1


def test_without_the_game_start_in_the_tables_the_start_is_a_won_position(checkers):
    for player in (0, 1):
        board = PlayBoard(checkers, player=player, seed=1)
        assert board.state.current_player() == player
        assert checkers.probe(board.state).wdl == 1
        assert board.status.startswith("your move") and "win" in board.status


def test_new_position_and_new_game(checkers):
    board = PlayBoard(checkers, seed=2)
    board.new_position()
    drawn = board.state
    assert checkers.probe(drawn).wdl == 1
    board.play(board.moves[0]["move"])
    board.new_game()
    assert board.state == drawn and board.history == []


def test_a_start_the_tables_do_not_hold_raises_their_error(checkers, nine):
    with pytest.raises(pp.OutOfScopeError):
        PlayBoard(checkers, start=checkers.game.new_initial_state())
    with pytest.raises(pp.MissingTableError):
        PlayBoard(nine, start=nine.game.new_initial_state())
    with pytest.raises(pp.TablebaseError, match="three_mens_morris"):
        PlayBoard(nine, start=pp.load_game("three_mens_morris").new_initial_state())
    with pytest.raises(ValueError, match="player"):
        PlayBoard(nine, player=2)


def test_a_finished_start_of_other_rules_is_refused(three, nine):
    # A finished game is not probed: its rules are checked against the tables' instead.
    three_game = pp.load_game("three_mens_morris", ply_limit=6)
    state = three_game.new_initial_state()
    while not state.is_terminal():
        state.apply(state.legal_moves()[0])
    with pytest.raises(pp.TablebaseError, match=r"the state has board=9 .*the tables board=24"):
        PlayBoard(nine, start=state)
    # A finished checkers game is a game of another family to the morris tables.
    over = pp.load_game("checkers").state_from_fen("W:W:B5")
    with pytest.raises(pp.TablebaseError, match="a checkers state cannot be valued in morris tables"):
        PlayBoard(nine, start=over)
    # The same finished game under its own tables' rules (the ply limit aside) is shown.
    board = PlayBoard(three, start=state)
    assert board.state == state


def test_a_finished_start_with_white_first_is_the_checkers_tables_to_show(checkers):
    # Who moves first is no rule the tables read: finished or not, such a start is taken.
    over = pp.load_game("checkers", first_player="white").state_from_fen("W:W:B5")
    assert over.is_terminal()
    assert PlayBoard(checkers, start=over).state == over


def test_tables_that_cannot_value_a_position_say_so_on_the_board(checkers, tmp_path):
    start = "B:W5:B27"  # Black's man crowns on either move: a table the copy lacks.
    with pytest.raises(pp.MissingTableError) as missing:
        pp.tablebase.open(tmp_path, game="checkers").probe(start)
    table = os.path.join(checkers.directories[0], missing.value.subspace + ".ppdb")
    shutil.copy(table, tmp_path)
    board = PlayBoard(tmp_path, start=start)
    assert board.message_kind == "error" and "cannot value this position" in board.message
    assert board.moves == [] and board.status == "your move (Black)"
    board.click("27")
    board.click("32")
    assert board.history == ["27-32"]
    assert board.message_kind == "error" and "cannot answer for White" in board.message
    assert board.status == "White to move"
    board.click("1")
    assert board.message_kind == "refused" and board.message == "it is not your move"
    board.undo()
    assert board.history == []


# The browser's side.


def test_browser_messages_do_what_the_methods_do(three):
    board = PlayBoard(three, seed=0)
    board._handle_custom_msg({"event": "click", "point": "b2"}, [])
    assert board.history[0] == "b2"
    board._handle_custom_msg({"event": "undo"}, [])
    assert board.history == []
    board._handle_custom_msg({"event": "play", "move": "a1"}, [])
    assert board.history[0] == "a1"
    board._handle_custom_msg({"event": "new_game"}, [])
    assert board.history == []
    board._handle_custom_msg({"event": "new_position"}, [])
    assert three.probe(board.state).wdl == 1
    board._handle_custom_msg({"event": "fly"}, [])
    assert board.message_kind == "error" and "fly" in board.message


def test_the_synced_state_follows_each_move(three):
    board = PlayBoard(three, seed=0)
    changed = []
    board.observe(lambda change: changed.append(change["name"]), names=["svg", "moves"])
    board.click("b2")
    assert {"svg", "moves"} <= set(changed)
    synced = board.get_state()
    assert synced["svg"] == board.svg and board.svg.startswith("<svg")
    assert synced["moves"] == board.moves
    assert synced["history"] == board.history
    assert 'class="pp-last"' in board.svg, "the reply is marked"
    assert "export default" in synced["_esm"] and synced["_css"]


def test_a_tablebase_may_be_given_as_its_directory(three):
    board = PlayBoard(three.directories[0])
    assert board.tablebase.game == three.game


# Touch-move.


def test_touch_move_a_touched_piece_must_be_moved(checkers):
    board = PlayBoard(checkers, start="B:W30:B1,2", seed=0, touch_move=True)
    board.click("1")
    board.click("1")
    assert board.message_kind == "refused" and "you touched 1" in board.message
    board.click("2")
    assert board.over and "touch-move" in board.status and "you lose" in board.status
    board.click("5")
    assert board.message_kind == "refused"
    board.undo()
    assert not board.over and board.selection == []
    board.click("1")
    board.click("5")
    assert board.history[0] == "1-5"


def test_touch_move_a_piece_that_cannot_be_played_is_warned_once(checkers):
    # The capture 1x10 is compulsory: the man on 3 cannot be played. Before the game's first
    # move, touching it is adjusting it, free.
    board = PlayBoard(checkers, start="B:W6:B1,3", seed=0, touch_move=True)
    for _ in range(2):
        board.click("3")
        assert "before the first move" in board.message and not board.over
    # After it, the first such touch is warned and the next loses.
    state = checkers.game.state_from_fen("W:W10:B1,3")
    state.apply("10-6")
    board = PlayBoard(checkers, start=state, seed=0, touch_move=True)
    board.click("3")
    assert board.message_kind == "refused" and "the next such touch" in board.message
    assert not board.over
    board.click("3")
    assert board.over and "cannot be played" in board.status


def test_touch_move_applies_to_the_move_list_too(checkers):
    board = PlayBoard(checkers, start="B:W30:B1,2", seed=0, touch_move=True)
    board.click("1")
    board.play("2-6")
    assert board.over and "you lose" in board.status
    free = PlayBoard(checkers, start="B:W30:B1,2", seed=0)
    free.click("1")
    free.click("2")
    assert not free.over and free.selection == ["2"]


def test_touch_move_leaves_placements_alone(three):
    board = PlayBoard(three, seed=0, touch_move=True)
    board.click("b2")
    assert board.history[0] == "b2" and not board.over
