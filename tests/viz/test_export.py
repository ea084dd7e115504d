"""Downloads carry exactly the matrix shown, with token labels, and survive tokens with commas."""

import csv
import io
import json

import numpy as np
import pytest

import viz


def test_csv_round_trips_weights_and_labels():
    w = np.array([[1.0, 0.0], [0.25, 0.75]])
    rows = list(csv.reader(io.StringIO(viz.attention_csv(w, ["a", ","], ["a", '"q"']))))
    assert rows[0] == ["query \\ key", "0 a", '1 "q"']
    assert rows[2][0] == "1 ,"
    np.testing.assert_allclose(np.array([r[1:] for r in rows[1:]], dtype=float), w)


def test_json_keeps_shape_and_tokens():
    w = np.random.default_rng(0).random((2, 4, 3, 3))
    data = json.loads(viz.attention_json(w, ["x", "y", "z"], ["x", "y", "z"], "all heads"))
    assert data["shape"] == [2, 4, 3, 3] and data["query_tokens"] == ["x", "y", "z"]
    np.testing.assert_allclose(np.array(data["weights"]), w, atol=1e-6)


def test_csv_checks_lengths():
    with pytest.raises(ValueError, match=r"2.*3|3.*2"):
        viz.attention_csv(np.ones((2, 2)), ["a", "b", "c"], ["a", "b"])
