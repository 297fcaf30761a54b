#!/usr/bin/env bash
# Builds the library's documentation with DocC, without plugins: the compiler's symbol graphs
# (`swift package dump-symbol-graph`), then `docc convert` of each module's catalog
# (Sources/MODULE/MODULE.docc) into .build/docs/MODULE.doccarchive. Warnings are errors: a
# broken symbol link or article reference fails the script (CI runs it), and so does a
# public symbol of ours without a doc comment (read from the symbol graphs with jq). Prints
# each module's documentation coverage.
#
#   bash Scripts/docs.sh            # then: docc preview Sources/FilterDSL/FilterDSL.docc ...
set -euo pipefail
cd "$(dirname "$0")/.."

dump=$(swift package dump-symbol-graph --minimum-access-level public 2>&1) || {
  echo "$dump" >&2
  exit 1
}
graphs=$(echo "$dump" | sed -n 's/^Files written to //p' | tail -1)
[ -d "$graphs" ] || { echo "no symbol graphs written:" >&2; echo "$dump" >&2; exit 1; }

out=.build/docs
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for module in FilterDSL FilterSQL FilterData FilterDatabase FilterSession; do
  mkdir -p "$work/$module"
  # The module's own graph and its extensions of other modules' types.
  cp "$graphs/$module.symbols.json" "$work/$module/"
  for extension in "$graphs/$module"@*.symbols.json; do
    [ -e "$extension" ] && cp "$extension" "$work/$module/"
  done
  echo "== $module"
  # Symbols declared in our sources (not inherited from the standard library) with no doc
  # comment.
  undocumented=$(jq -r '.symbols[]
      | select((.location.uri // "") | contains("/Sources/"))
      | select(.docComment == null)
      | "\(.location.uri | sub(".*/Sources/"; "Sources/")):\(.location.position.line + 1): \(.pathComponents | join("."))"' \
    "$work/$module"/*.symbols.json)
  if [ -n "$undocumented" ]; then
    echo "public symbols without a doc comment:" >&2
    echo "$undocumented" >&2
    exit 1
  fi
  docc convert "Sources/$module/$module.docc" \
    --additional-symbol-graph-dir "$work/$module" \
    --fallback-display-name "$module" --fallback-bundle-identifier "org.flt.$module" \
    --output-path "$out/$module.doccarchive" --warnings-as-errors \
    --experimental-documentation-coverage --coverage-summary-level brief 2>&1 \
    | grep -v '^$'
done
echo "documentation in $out"
