#!/usr/bin/env bash
# bench-publish.yml's gh-pages steps: build (read-only job) appends a run to the history as one commit and hands it over
# as a git bundle; take (the writing job) checks that commit and puts it on the local gh-pages branch; push sends it.
#
#   build: env RESULTS_DIR (merged run), WORK_DIR (a gh-pages worktree is made here), HANDOVER (output folder),
#          SOURCE_RUN, SOURCE_SHA (for the commit message)
#   take:  env HANDOVER (what build wrote)
#   push:  no further env
# BENCHLINE_CLI: how to run benchline (default "node ci/cli.js"; "npx benchline" where it is a dependency).
# All: GH_TOKEN (optional; for a private repository's fetch and for the push), BENCHLINE_GH_PAGES_REMOTE (optional;
# the remote to use instead of the checkout's origin, e.g. a local bare repository in tests).
# The token reaches git through GIT_CONFIG_* environment variables, never through a command line (which any
# process on the runner can read in /proc).
set -euo pipefail
cmd="${1:-}"
remote="${BENCHLINE_GH_PAGES_REMOTE:-$(git remote get-url origin)}"
bot=(-c user.name="github-actions[bot]" -c user.email="41898282+github-actions[bot]@users.noreply.github.com" -c commit.gpgsign=false)
# The only paths a history commit may touch: the store, and the two marker files the branch needs.
allowed='^(history/.*|\.nojekyll|\.gitignore)$'

if [[ -n "${GH_TOKEN:-}" ]]; then
  basic="$(printf 'x-access-token:%s' "$GH_TOKEN" | base64 -w0)"
  echo "::add-mask::$basic"
  export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0="http.${GITHUB_SERVER_URL:-https://github.com}/.extraheader" GIT_CONFIG_VALUE_0="AUTHORIZATION: basic $basic"
fi

die() { echo "gh-pages.sh $cmd: $*" >&2; exit 1; }

# The remote's gh-pages commit, or nothing when the branch does not exist yet.
remote_tip() {
  git ls-remote --heads "$remote" gh-pages | awk '$2 == "refs/heads/gh-pages" { print $1 }'
}

fetch_tip() {
  local tip="$1"
  # Only the tip: the record job needs it as the bundle's base, and the build job only adds files on top.
  [[ -z "$tip" ]] || git fetch --quiet --no-tags --depth 1 "$remote" "+refs/heads/gh-pages:refs/remotes/benchline/gh-pages"
}

case "$cmd" in
  build)
    : "${RESULTS_DIR:?}" "${WORK_DIR:?}" "${HANDOVER:?}"
    tip="$(remote_tip)"
    fetch_tip "$tip"
    rm -rf "$WORK_DIR"
    git worktree prune
    if [[ -n "$tip" ]]; then
      git worktree add --quiet --detach "$WORK_DIR" "$tip"
    else
      # An empty orphan worktree (`git worktree add --orphan` needs git 2.42): no files checked out, an empty index.
      git worktree add --quiet --no-checkout --detach "$WORK_DIR" HEAD
      git -C "$WORK_DIR" checkout --quiet --orphan "benchline-gh-pages-$$"
      git -C "$WORK_DIR" read-tree --empty
      git -C "$WORK_DIR" clean -fdxq
    fi
    # The store is append-only and publish is idempotent: a run already in the history changes nothing.
    paths=("$RESULTS_DIR")
    if [[ -d "$RESULTS_DIR" && ! -e "$RESULTS_DIR/run.json" && ! -e "$RESULTS_DIR/latest" ]]; then
      # a downloaded artifact: the run folders, without the `latest` link (artifacts leave links out)
      mapfile -t paths < <(find "$RESULTS_DIR" -mindepth 2 -maxdepth 2 -name run.json -printf '%h\n' | sort)
      [[ ${#paths[@]} -gt 0 ]] || die "$RESULTS_DIR holds no run folder (no <run-id>/run.json)"
    fi
    read -ra cli <<< "${BENCHLINE_CLI:-node ci/cli.js}"
    "${cli[@]}" publish "${paths[@]}" --store "$WORK_DIR/history"
    # The store's lock file is for concurrent local publishers; it never belongs in the branch.
    grep -qxF 'store.json.lock' "$WORK_DIR/.gitignore" 2>/dev/null || echo 'store.json.lock' >> "$WORK_DIR/.gitignore"
    touch "$WORK_DIR/.nojekyll"
    git -C "$WORK_DIR" add -A
    mkdir -p "$HANDOVER"
    echo "${tip:-none}" > "$HANDOVER/base"
    if git -C "$WORK_DIR" diff --cached --quiet; then
      echo "gh-pages.sh build: run already in the history; the record job only adds github-action-benchmark's points"
      git -C "$WORK_DIR" "${bot[@]}" commit --quiet --allow-empty -m "history: bench run ${SOURCE_RUN:-local} already recorded"
    else
      git -C "$WORK_DIR" "${bot[@]}" commit --quiet -m "history: bench run ${SOURCE_RUN:-local} at ${SOURCE_SHA:-unknown}"
    fi
    head="$(git -C "$WORK_DIR" rev-parse HEAD)"
    git -C "$WORK_DIR" branch --quiet -f benchline-handover "$head"
    if [[ -n "$tip" ]]; then
      git bundle create --quiet "$HANDOVER/history.bundle" "$tip..benchline-handover"
    else
      git bundle create --quiet "$HANDOVER/history.bundle" benchline-handover
    fi
    echo "gh-pages.sh build: history commit $head on top of ${tip:-an empty branch}"
    ;;

  take)
    : "${HANDOVER:?}"
    base="$(cat "$HANDOVER/base")"
    tip="$(remote_tip)"
    [[ "${tip:-none}" == "$base" ]] || die "gh-pages moved from ${base} to ${tip:-nothing} since the build job; bench-publish.yml is meant to be its only writer: re-run this workflow"
    fetch_tip "$tip"
    git bundle verify --quiet "$HANDOVER/history.bundle" >/dev/null 2>&1 || die "$HANDOVER/history.bundle is not a bundle on top of gh-pages ${base}"
    git fetch --quiet --no-tags "$HANDOVER/history.bundle" "+refs/heads/benchline-handover:refs/heads/gh-pages"
    if [[ "$base" == "none" ]]; then
      [[ "$(git rev-list --count gh-pages)" == 1 ]] || die "the first history commit must be one root commit"
      from="$(git hash-object -t tree /dev/null)"
    else
      [[ "$(git rev-list --count "$base..gh-pages")" == 1 && "$(git rev-parse gh-pages^)" == "$base" ]] \
        || die "the handed-over history is not one commit on top of gh-pages ${base}"
      from="$base"
    fi
    # --no-renames: a rename is listed under its new name only, which would hide the path it took a file away from
    changed="$(git diff --name-only --no-renames "$from" gh-pages)"
    if bad="$(grep -Ev "$allowed" <<< "$changed")" && [[ -n "$bad" ]]; then
      die "the history commit touches paths outside history/: $(head -n 5 <<< "$bad" | tr '\n' ' ')"
    fi
    # regular files only: a link (mode 120000) would make the next build read what it points at on the runner
    links="$(git diff --raw --no-renames --diff-filter=d "$from" gh-pages | awk '$2 == "120000" || $2 == "160000" { sub(/^[^\t]*\t/, ""); print }')"
    [[ -z "$links" ]] || die "the history commit adds a link or submodule: $(head -n 5 <<< "$links" | tr '\n' ' ')"
    echo "gh-pages.sh take: gh-pages is now $(git rev-parse gh-pages) ($(grep -c . <<< "$changed" || true) files changed)"
    ;;

  push)
    if ! git push --quiet "$remote" "gh-pages:refs/heads/gh-pages"; then
      die "the push was refused; gh-pages moved while this run published (bench-publish.yml is meant to be its only writer): re-run this workflow"
    fi
    echo "gh-pages.sh push: pushed $(git rev-parse gh-pages)"
    ;;

  *)
    echo "usage: gh-pages.sh build|take|push (see the top of this file for the environment)" >&2
    exit 2
    ;;
esac
