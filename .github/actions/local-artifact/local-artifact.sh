#!/usr/bin/env bash
# Copies artifacts through the folder named by BENCHLINE_ACT_ARTIFACTS, mirroring upload/download-artifact's layout.
set -euo pipefail
store="${BENCHLINE_ACT_ARTIFACTS:-}"
if [[ -z "$store" ]]; then
  echo "local-artifact: set BENCHLINE_ACT_ARTIFACTS to a folder outside the repository (act --env BENCHLINE_ACT_ARTIFACTS=/tmp/x)" >&2
  exit 1
fi
case "$MODE" in
  upload)
    [[ -n "$NAME" ]] || { echo "local-artifact: upload needs a name" >&2; exit 1; }
    [[ -d "$TARGET" ]] || { echo "local-artifact: $TARGET is not a folder; nothing to upload as $NAME" >&2; exit 1; }
    rm -rf "${store:?}/$NAME" && mkdir -p "$store/$NAME"
    cp -a "$TARGET/." "$store/$NAME/"
    # upload-artifact leaves links out too (results/latest points into the same tree).
    find "$store/$NAME" -type l -delete
    echo "local-artifact: uploaded $TARGET as $NAME"
    ;;
  download)
    mkdir -p "$TARGET"
    if [[ -n "$PATTERN" ]]; then
      shopt -s nullglob
      found=0
      for dir in "$store"/$PATTERN; do
        name="$(basename "$dir")"
        mkdir -p "$TARGET/$name" && cp -a "$dir/." "$TARGET/$name/"
        found=$((found + 1))
      done
      echo "local-artifact: downloaded $found artifact(s) matching $PATTERN"
    else
      [[ -d "$store/$NAME" ]] || { echo "local-artifact: no artifact named $NAME in $store" >&2; exit 1; }
      cp -a "$store/$NAME/." "$TARGET/"
      echo "local-artifact: downloaded $NAME"
    fi
    ;;
  *)
    echo "local-artifact: mode must be upload or download, not \"$MODE\"" >&2
    exit 1
    ;;
esac
