"""perfectplay.tablebase.verify: tables rechecked from their successors, WDL-only tables proven
by their unit distances, and bad requests refused with the exception that names them."""

import os
import shutil

import pytest

import perfectplay as pp

# Six Men's Morris with the no-re-forming memory and any man taken: units of several
# subspaces, with draws (crates/solver/tests/unit_distances.rs builds the same unit).
RULES = {"no_reforming": True, "removal": "any"}


@pytest.fixture(scope="module")
def proven(tmp_path_factory):
    """The 4-5 unit of that game and what it leads to, WDL-only, with unit distances."""
    out = tmp_path_factory.mktemp("six")
    built = pp.tablebase.build(
        "six_mens_morris",
        out,
        subspaces=["4-5"],
        wdl_only=True,
        unit_distances=True,
        progress=False,
        **RULES,
    )
    return out, {row["subspace"]: row["positions"] for row in built}


def files(directory, extension):
    return sorted(name for name in os.listdir(directory) if name.endswith(extension))


def copy(directory, tmp_path):
    target = tmp_path / "copy"
    shutil.copytree(directory, target)
    return target


@pytest.fixture
def proven_dir(proven):
    return proven[0]


@pytest.fixture
def built_sizes(proven):
    return proven[1]


def test_the_build_writes_a_unit_distance_file_beside_each_table(proven_dir):
    tables = [name[: -len(".ppdb")] for name in files(proven_dir, ".ppdb")]
    distances = [name[: -len(".ppud")] for name in files(proven_dir, ".ppud")]
    assert "4-5" in tables and "5-4-bmo" in tables
    assert tables == distances


def test_wdl_only_tables_are_proven_by_their_unit_distances(proven_dir, built_sizes):
    seen = []
    report = pp.tablebase.verify(proven_dir, unit_distances=True, progress=seen.append)
    assert report.passed and report.mismatches == 0
    assert sorted(t.subspace + ".ppdb" for t in report.tables) == files(proven_dir, ".ppdb")
    assert all(t.example is None for t in report.tables)
    assert {t.subspace: t.positions for t in report.tables} == built_sizes
    assert report.positions == sum(built_sizes.values()) and report.seconds >= 0
    # The progress the callback saw ends with every position checked, in the last table.
    assert seen and seen[-1]["checked"] == seen[-1]["total"] == report.positions
    assert seen[-1]["table"] == report.tables[-1].subspace


def test_without_unit_distances_the_tables_are_checked_for_agreement(proven_dir):
    report = pp.tablebase.verify(
        proven_dir, "six_mens_morris", subspaces=["4-5", "5-4"], progress=False, **RULES
    )
    assert report.passed
    assert [t.subspace for t in report.tables] == ["4-5", "5-4"]


def test_a_missing_unit_distance_file_is_named(proven_dir, tmp_path):
    damaged = copy(proven_dir, tmp_path)
    os.remove(damaged / "5-4.ppud")
    with pytest.raises(pp.TablebaseError, match="5-4.ppud"):
        pp.tablebase.verify(damaged, subspaces=["4-5"], unit_distances=True, progress=False)
    # Agreement alone needs no unit distances.
    assert pp.tablebase.verify(damaged, subspaces=["4-5"], progress=False).passed


def test_a_table_its_successors_need_is_a_missing_table(proven_dir, tmp_path):
    partial = copy(proven_dir, tmp_path)
    for name in files(partial, ".ppdb"):
        if not name.startswith(("4-5", "5-4")):
            os.remove(partial / name)
    with pytest.raises(pp.MissingTableError) as missing:
        pp.tablebase.verify(partial, subspaces=["4-5"], progress=False)
    assert isinstance(missing.value, KeyError)
    assert not missing.value.subspace.startswith(("4-5", "5-4"))


def test_a_damaged_table_is_refused(proven_dir, tmp_path):
    damaged = copy(proven_dir, tmp_path)
    path = damaged / "4-5.ppdb"
    with open(path, "r+b") as f:
        f.truncate(os.path.getsize(path) - 1)
    with pytest.raises(pp.TablebaseError, match="4-5"):
        pp.tablebase.verify(damaged, subspaces=["4-5"], progress=False)


def test_bad_requests_are_refused(proven_dir, tmp_path):
    verify = pp.tablebase.verify
    with pytest.raises(pp.TablebaseError, match="no tables"):
        verify(tmp_path, progress=False)
    with pytest.raises(pp.TablebaseError, match="no tables"):
        verify(tmp_path, "six_mens_morris", progress=False)
    with pytest.raises(pp.TablebaseError, match="no such directory"):
        verify(tmp_path / "nowhere", "six_mens_morris", progress=False)
    with pytest.raises(TypeError):
        verify([proven_dir], progress=False)  # one directory, not a list
    with pytest.raises(ValueError, match="threads"):
        verify(proven_dir, threads=0, progress=False)
    with pytest.raises(ValueError):
        verify(proven_dir, subspaces=["not a subspace"], progress=False)
    with pytest.raises(ValueError, match="game id"):
        verify(proven_dir, no_reforming=True, progress=False)
    with pytest.raises(ValueError, match="wdl_only"):
        pp.tablebase.build("six_mens_morris", tmp_path, max_men=3, unit_distances=True)
    # The tables' own rules are not the default game's: their headers say so.
    with pytest.raises(pp.TablebaseError):
        verify(proven_dir, "six_mens_morris", subspaces=["4-5"], progress=False)


@pytest.fixture(scope="module")
def nine_dir(tmp_path_factory):
    """Nine Men's Morris up to 4 men a side, WDL-only with unit distances: 4.9 M positions,
    verified in about 3 s on one thread."""
    out = tmp_path_factory.mktemp("nine")
    pp.tablebase.build(
        "nine_mens_morris", out, max_men=4, wdl_only=True, unit_distances=True, progress=False
    )
    return out


def test_ctrl_c_stops_a_verification_and_writes_nothing(nine_dir):
    before = {name: os.path.getmtime(nine_dir / name) for name in os.listdir(nine_dir)}

    seen = []

    def interrupt(figures):
        seen.append(figures)
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        pp.tablebase.verify(nine_dir, unit_distances=True, threads=1, progress=interrupt)
    # Stopped while under way, not after the end.
    assert len(seen) == 1 and seen[0]["checked"] < seen[0]["total"]
    after = {name: os.path.getmtime(nine_dir / name) for name in os.listdir(nine_dir)}
    assert after == before
    # Nothing was left half done: the whole set is proven by a run to the end.
    assert pp.tablebase.verify(nine_dir, unit_distances=True, progress=False).passed


def test_compressed_checkers_tables_verify_by_material(tmp_path):
    pp.tablebase.build("checkers", tmp_path, max_pieces=3, compress=True, progress=False)
    report = pp.tablebase.verify(tmp_path, subspaces=["1010"], progress=False)
    assert report.passed and report.tables
    assert all(t.subspace.startswith("1010") for t in report.tables)
