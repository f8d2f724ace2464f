"""The generators: they write files of the repository (the C op-code
tables, vmath's tables, the Torch7 stub, the reference and API pages) and
are not part of the package (the wheel does not ship this folder;
.ci/wheel checks).  Run from the repository's root: `python -m
tools.<name>`; the staleness tests import them from here."""
