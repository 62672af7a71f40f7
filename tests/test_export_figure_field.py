"""The pattern's optional ``figure`` field (style and title of exported figures): validated, saved
only when set, and preserved by a save/load round trip."""

import json
from dataclasses import replace

import pytest

from bankexplorer.io import patternfile as pf
from bankexplorer.model.errors import FileFormatError
from bankexplorer.model.pattern import Figure
from bankexplorer.resources import EXAMPLES, SCHEMA


def base():
    return pf.load(EXAMPLES / "06_transpose_32x32.json")


@pytest.mark.parametrize("fig", [Figure("slide", "Transpose, before"), Figure("dark", ""),
                                 Figure("default", "Ü & <x>")])
def test_figure_round_trip(fig, tmp_path):
    p = replace(base(), figure=fig)
    f = tmp_path / "p.json"
    pf.save(p, f)
    assert json.loads(f.read_text())["figure"] == {"style": fig.style, "title": fig.title}
    q = pf.load(f)
    assert q.figure == fig and q == p


def test_default_figure_is_not_written_and_missing_means_default():
    d = pf.to_dict(base())
    assert "figure" not in d
    assert pf.from_dict(d).figure == Figure("default", "")
    d["figure"] = {"title": "only a title"}
    assert pf.from_dict(d).figure == Figure("default", "only a title")


@pytest.mark.parametrize("fig,where,fragment", [
    ({"style": "neon"}, "figure.style", "must be one of default, slide, dark, got 'neon'"),
    ({"title": 3}, "figure.title", "must be a string"),
    ({"colour": "red"}, "figure.colour", "unknown key"),
    ("slide", "figure", "must be an object"),
])
def test_bad_figure_field_names_the_path(fig, where, fragment):
    d = pf.to_dict(base())
    d["figure"] = fig
    with pytest.raises(FileFormatError) as e:
        pf.from_dict(d)
    assert (where, ) == (e.value.problems[0][0], ) and fragment in e.value.problems[0][1]


def test_schema_knows_the_figure_field():
    jsonschema = pytest.importorskip("jsonschema")
    v = jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text()))
    d = pf.to_dict(replace(base(), figure=Figure("slide", "t")))
    assert list(v.iter_errors(d)) == []
    d["figure"]["style"] = "neon"
    assert list(v.iter_errors(d))
    assert set(v.schema["properties"]["figure"]["properties"]["style"]["enum"]) == set(pf.FIGURE_STYLES)


def test_the_files_styles_are_the_exports_styles():
    """The window lists patternfile's names (without importing the export's colour tables at
    start-up); every one must be a style the export can draw, and none missing."""
    from bankexplorer.export.styles import STYLE_NAMES

    assert STYLE_NAMES == pf.FIGURE_STYLES
