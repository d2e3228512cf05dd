#!/usr/bin/env bash
# The documentation site (mkdocs.yml, docs/): the guide and the Python API reference, read
# from python/perfectplay without importing it (the compiled extension is not needed).
#
#   ./scripts/docs.sh          build into target/site; warnings are errors
#   ./scripts/docs.sh serve    serve it at http://127.0.0.1:8000 with live reload (more
#                              arguments go to `mkdocs serve`)
#
# The tools, pinned in docs/requirements.txt, go into a virtual environment at .venv-docs
# (DOCS_VENV overrides it), made with python3 (or PYTHON) the first time and again only when
# docs/requirements.txt changes. The Rust crates' documentation is `cargo doc --workspace
# --no-deps`, in target/doc, which the site's "Rust crates" page links to.
set -euo pipefail
cd "$(dirname "$0")/.."

command=${1:-build}
if [[ "$command" != build && "$command" != serve ]] || [[ "$command" == build && $# -gt 1 ]]; then
    echo "usage: $0 [build | serve [mkdocs serve options]]" >&2
    exit 2
fi

venv=${DOCS_VENV:-.venv-docs}
python=${PYTHON:-python3}
requirements=docs/requirements.txt
installed="$venv/requirements.installed"

if ! cmp -s "$requirements" "$installed"; then
    if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11, 5))'; then
        echo "docs: the documentation tools need Python 3.11.5 or newer;" \
            "set PYTHON to one ($python is $("$python" --version 2>&1))" >&2
        exit 1
    fi
    echo "== documentation tools into $venv"
    "$python" -m venv --clear "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
    cp "$requirements" "$installed"
fi

# Material for MkDocs prints a notice about MkDocs 2.0 on every run.
export NO_MKDOCS_2_WARNING=1
if [[ "$command" == serve ]]; then
    shift
    exec "$venv/bin/mkdocs" serve "$@"
fi
echo "== mkdocs build --strict into target/site"
exec "$venv/bin/mkdocs" build --strict --site-dir target/site
