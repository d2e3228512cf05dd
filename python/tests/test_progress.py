"""How a build draws its progress: tqdm, one line updated in place in a notebook without
ipywidgets (no output line per update), or one line rewritten on standard error."""

import sys
import types

import pytest
from _helpers import child_cwd

import perfectplay as pp
from perfectplay import tablebase


def test_a_notebook_without_ipywidgets_gets_one_line_updated_in_place(monkeypatch):
    monkeypatch.setitem(sys.modules, "ipykernel", types.ModuleType("ipykernel"))
    monkeypatch.setitem(sys.modules, "ipywidgets", None)  # import fails
    assert tablebase._progress_style() == "notebook-line"


def test_elsewhere_tqdm_or_a_line_on_standard_error(monkeypatch):
    monkeypatch.delitem(sys.modules, "ipykernel", raising=False)
    monkeypatch.setitem(sys.modules, "tqdm", None)
    assert tablebase._progress_style() == "stderr-line"


def test_stderr_line_build(tmp_path, monkeypatch, capsys):
    monkeypatch.delitem(sys.modules, "ipykernel", raising=False)
    monkeypatch.setitem(sys.modules, "tqdm", None)
    pp.tablebase.build("three_mens_morris", tmp_path, whole_game=True)
    err = capsys.readouterr().err
    assert err.endswith("\n") and "tables:" in err and "\n" not in err.rstrip("\n")


def test_a_notebook_build_without_ipywidgets_leaves_one_output(tmp_path):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("IPython")
    code = (
        "import sys\n"
        "sys.modules['ipywidgets'] = None\n"
        "import perfectplay as pp\n"
        f"pp.tablebase.build('nine_mens_morris', {str(tmp_path)!r}, max_men=4)\n"
    )
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)])
    # The kernel starts in the folder `path` names, its working directory first on sys.path.
    nbclient.NotebookClient(
        notebook,
        timeout=120,
        kernel_name="python3",
        resources={"metadata": {"path": child_cwd()}},
    ).execute()
    outputs = notebook.cells[0].outputs
    progress = [o for o in outputs if o.output_type == "display_data"]
    assert len(progress) == 1, outputs
    assert "tables: 100.0%" in progress[0].data["text/plain"]
    assert not [o for o in outputs if o.output_type == "stream"], outputs


def test_tqdm_build(tmp_path, monkeypatch, capsys):
    pytest.importorskip("tqdm")
    monkeypatch.delitem(sys.modules, "ipykernel", raising=False)
    assert tablebase._progress_style() == "tqdm"
    pp.tablebase.build("three_mens_morris", tmp_path, whole_game=True)
    assert "positions" in capsys.readouterr().err
