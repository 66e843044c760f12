"""Sphinx configuration: the guides, the rule book, the formats and the API reference from the docstrings.

Build with ``sphinx-build -W -b html docs docs/_build`` (warnings are errors, as in CI) after
``pip install -e '.[docs]'``; autodoc imports the installed nardy, compiled core included.
"""

import nardy

project = "nardy"
author = "the nardy developers"
copyright = "2026, the nardy developers"
release = version = nardy.__version__

extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon", "sphinx.ext.viewcode", "myst_parser"]
napoleon_google_docstring = False  # the docstrings that have sections write them numpy-style
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build"]
myst_heading_anchors = 3

# the docstrings write `name` for a name: link it when Sphinx knows it, else show it as code
default_role = "py:obj"
autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_preserve_defaults = True

html_theme = "alabaster"
html_title = f"nardy {release}"
