#!/bin/sh
# The container image's build steps, in one script: the Dockerfile runs it, and CI runs it
# outside a container (.ci/run), since no container engine runs there.
#
#   contrib/image-steps.sh SOURCE CACHE DATA
#
# SOURCE is the project (with requirements.txt), CACHE the folder the solver's kernels are
# compiled into (the image's NUMBA_CACHE_DIR), DATA the folder the database goes to (a volume).
# Run with the Python the image runs; it installs into that Python's environment.
set -eu
source_dir=$1
cache_dir=$2
data_dir=$3
cd "$source_dir"
python -m pip install --no-cache-dir --disable-pip-version-check --quiet -r requirements.txt
# Compile where the bot will look, from outside the source tree: the installed package is the
# one whose kernels the cache is keyed to.
mkdir -p "$cache_dir" "$data_dir"
(cd / && NUMBA_CACHE_DIR="$cache_dir" python -m bot.engine.precompile "$cache_dir")
python -m bot --version
