"""The example notebook runs top to bottom in this venv's python3 kernel and draws the figures it
promises: one head's heatmap [T, T], a grid of layers × heads, a spectrum of T singular values."""

import ast
import sys
from pathlib import Path

import pytest

import models
from tests.pages.apptest import array

nbformat = pytest.importorskip("nbformat", reason="requirements-dev.txt installs it")
nbclient = pytest.importorskip("nbclient", reason="requirements-dev.txt installs it")
pytest.importorskip("ipykernel", reason="requirements-dev.txt installs it")

NOTEBOOK = Path(__file__).parents[1] / "notebooks" / "attention_lab.ipynb"
PLOTLY = "application/vnd.plotly.v1+json"


def test_the_notebook_is_committed_without_outputs():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(nb)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code and all(not c.outputs and c.execution_count is None for c in code)


def test_python3_is_this_venvs_python():
    """nbclient's kernel_name="python3" must start this interpreter (ipykernel's kernelspec under
    sys.prefix), not some other Python on the machine without torch."""
    from jupyter_client.manager import KernelManager

    assert KernelManager(kernel_name="python3").format_kernel_cmd()[0] == sys.executable


def test_the_notebook_runs_and_draws_the_heatmap_grid_and_spectrum():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    # cwd = the notebook's folder, as in Jupyter: its first cell puts the repository root on sys.path.
    client = nbclient.NotebookClient(
        nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOK.parent)}}
    )
    client.execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    shapes = [o.data["text/plain"] for o in outputs if o.output_type == "execute_result" and "text/plain" in o.data]
    n_layers, n_heads, t, t_keys = ast.literal_eval(shapes[0])  # att.shape, printed by the notebook
    cfg = models.load("decoder").config
    assert (n_layers, n_heads) == (cfg.n_layers, cfg.n_heads) and t == t_keys > 2

    heatmap, grid, spectrum = [o.data[PLOTLY] for o in outputs if PLOTLY in o.get("data", {})]
    (hm,) = heatmap["data"]
    assert array(hm["z"]).shape == (t, t) and len(hm["y"]) == t
    cells = [tr for tr in grid["data"] if tr["type"] == "heatmap"]
    assert len(cells) == n_layers * n_heads
    assert all(array(c["z"]).shape == (t, t) for c in cells)
    lines = [tr for tr in spectrum["data"] if tr["type"] == "scatter" and tr.get("name") in ("causal", "bidirectional")]
    assert len(lines) == 2 and all(len(array(tr["y"])) == t for tr in lines)
