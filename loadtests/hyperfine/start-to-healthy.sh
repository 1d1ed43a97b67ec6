#!/usr/bin/env bash
# How long does a service take from launch to its first healthy answer? Starts it, polls its health URL, stops it (one hyperfine run).
#
# Usage: start-to-healthy.sh URL COMMAND [ARG...]
#   URL      http://127.0.0.1:PORT/PATH that answers 2xx once the service is ready (loopback only)
#   COMMAND  the service, started in the background; it should exec the server (e.g.
#            `env PORT=3001 bun run server.js`), since the script stops that one process
# Exits 0 once URL answered 2xx and the service has stopped again. Exits 1 when the service exits
# before it is healthy or is not healthy within TIMEOUT seconds (default 30), so hyperfine reports
# the run as failed instead of timing it. The probe is bash's own /dev/tcp (no curl, no process per
# poll); between probes it waits POLL seconds (default 0.005) without spinning, so the prober does
# not take the CPU the starting service needs.
set -u

url="${1:-}"
shift || true
if [[ ! $url =~ ^http://(127\.[0-9]+\.[0-9]+\.[0-9]+|localhost):([0-9]+)(/.*)?$ ]] || [ $# -eq 0 ]; then
  echo "usage: start-to-healthy.sh http://127.0.0.1:PORT/health COMMAND [ARG...] (got: ${url:-nothing})" >&2
  exit 2
fi
host="${BASH_REMATCH[1]}"
port="${BASH_REMATCH[2]}"
path="${BASH_REMATCH[3]:-/}"
timeout="${TIMEOUT:-30}"
poll="${POLL:-0.005}"

# A pipe nobody writes to: `read -t` on it is a sleep without starting a process.
exec {nap}<> <(:)

healthy() {
  local line=
  { exec {conn}<>"/dev/tcp/$host/$port"; } 2>/dev/null || return 1
  printf 'GET %s HTTP/1.0\r\nHost: %s:%s\r\nConnection: close\r\n\r\n' "$path" "$host" "$port" >&"$conn"
  IFS= read -r -t 2 line <&"$conn" || true
  exec {conn}>&-
  [[ $line =~ ^HTTP/[0-9.]+\ 2[0-9][0-9] ]]
}

"$@" &
pid=$!
deadline=$((SECONDS + timeout))
until healthy; do
  if ! kill -0 "$pid" 2>/dev/null; then
    wait "$pid"
    echo "start-to-healthy: $1 exited (status $?) before $url answered 2xx" >&2
    exit 1
  fi
  if [ "$SECONDS" -ge "$deadline" ]; then
    kill "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    echo "start-to-healthy: $url did not answer 2xx within $timeout s" >&2
    exit 1
  fi
  read -r -t "$poll" -u "$nap" || true
done
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
exit 0
