#!/usr/bin/env bash
# bench-publish.yml: appends one run to the history on the gh-pages branch, retrying on a concurrent push.
# Env: RESULTS_DIR (merged run folder), STORE_DIR (clone target), GH_TOKEN, GITHUB_SERVER_URL, GITHUB_REPOSITORY,
# SOURCE_RUN (workflow run id), SOURCE_SHA (benchmarked commit). The token goes in a header, never into .git/config.
set -euo pipefail
: "${RESULTS_DIR:?}" "${STORE_DIR:?}" "${GH_TOKEN:?}" "${GITHUB_REPOSITORY:?}"
remote="${GITHUB_SERVER_URL:-https://github.com}/${GITHUB_REPOSITORY}.git"
basic="$(printf 'x-access-token:%s' "$GH_TOKEN" | base64 -w0)"
echo "::add-mask::$basic"
g() { git -c "http.extraheader=AUTHORIZATION: basic $basic" "$@"; }

for attempt in 1 2 3 4 5; do
  rm -rf "$STORE_DIR"
  if g ls-remote --exit-code --heads "$remote" gh-pages >/dev/null; then
    g clone --quiet --depth 1 --branch gh-pages --single-branch "$remote" "$STORE_DIR"
  else
    git init --quiet "$STORE_DIR"
    git -C "$STORE_DIR" checkout --quiet --orphan gh-pages
    git -C "$STORE_DIR" remote add origin "$remote"
  fi
  # The store is append-only and publish is idempotent, so a retry simply publishes onto the newer branch.
  node ci/cli.js publish "$RESULTS_DIR" --store "$STORE_DIR/history"
  # The store's lock file is for concurrent local publishers; it never belongs in the branch.
  grep -qxF 'store.json.lock' "$STORE_DIR/.gitignore" 2>/dev/null || echo 'store.json.lock' >> "$STORE_DIR/.gitignore"
  touch "$STORE_DIR/.nojekyll"
  git -C "$STORE_DIR" add -A
  if git -C "$STORE_DIR" diff --cached --quiet; then
    echo "publish-history: run already in the history; nothing to push"
    exit 0
  fi
  git -C "$STORE_DIR" -c user.name="github-actions[bot]" -c user.email="41898282+github-actions[bot]@users.noreply.github.com" \
    commit --quiet -m "history: bench run ${SOURCE_RUN:-local} at ${SOURCE_SHA:-unknown}"
  if g -C "$STORE_DIR" push --quiet origin gh-pages; then
    echo "publish-history: pushed on attempt $attempt"
    exit 0
  fi
  sleep $((attempt * 5))
done
echo "publish-history: gave up after 5 attempts; another writer kept moving gh-pages" >&2
exit 1
