#!/usr/bin/env bash
# clang-format (.clang-format) over the C core, strided/_c/*.c and *.h:
#   tools/format_c.sh           formats them in place
#   tools/format_c.sh --check   changes nothing; fails, showing the diff,
#                               when a file is not as clang-format writes it
# The X-macro lists and the hand-laid tables sit between
# `/* clang-format off */` and `/* clang-format on */`; the generated
# headers (st_op_names.h, st_op_types.h, vmath_tables.h, strided.h's op
# codes) carry the same fences from their generators.  The version is
# pyproject.toml's `lint` extra (another version may lay out differently).
set -euo pipefail
cd "$(dirname "$0")/.."
files=(strided/_c/*.c strided/_c/*.h)
case "${1:-}" in
    "")
        clang-format -i "${files[@]}"
        ;;
    --check)
        status=0
        for f in "${files[@]}"; do
            if ! clang-format "$f" | diff -u --label "$f" --label "$f (clang-format)" "$f" -; then
                status=1
            fi
        done
        exit $status
        ;;
    *)
        echo "usage: tools/format_c.sh [--check]" >&2
        exit 2
        ;;
esac
