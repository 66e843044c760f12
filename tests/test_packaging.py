"""The installed package's metadata: what an index shows and what pip checks before installing."""

from __future__ import annotations

from importlib import metadata

import nardy

TESTED = ["3.10", "3.11", "3.12", "3.13"]  # the versions .ci/run builds and tests on


def test_the_license_is_an_spdx_expression_with_its_file() -> None:
    meta = metadata.metadata("nardy")
    assert meta["License-Expression"] == "MIT"
    assert "LICENSE" in (meta.get_all("License-File") or [])
    assert not any(c.startswith("License ::") for c in meta.get_all("Classifier") or [])  # deprecated with SPDX


def test_requires_python_says_what_ci_tests() -> None:
    meta = metadata.metadata("nardy")
    assert sorted(meta["Requires-Python"].replace(" ", "").split(",")) == ["<3.14", ">=3.10"]
    versions = [c.rsplit(" :: ", 1)[1] for c in meta.get_all("Classifier") or [] if c.startswith("Programming Language :: Python :: 3.")]
    assert versions == TESTED


def test_the_metadata_names_authors_urls_and_keywords() -> None:
    meta = metadata.metadata("nardy")
    assert meta["Version"] == nardy.__version__
    assert "nardy developers" in (meta["Author"] or meta["Author-email"] or "")
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL") or [])
    assert {"Homepage", "Documentation", "Source", "Issues"} <= set(urls)
    assert "backgammon" in meta["Keywords"]
    assert set(metadata.requires("nardy") or []) >= {"numpy>=1.25"}
