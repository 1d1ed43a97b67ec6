#!/usr/bin/env bash
# Runs a server inside a private network namespace joined to the host by a veth pair, so clients reach it over a real (virtual) link instead of loopback.
#
# Usage: netns-server.sh <command...>     (the command is run inside the namespace; it should listen on $BIND_HOST)
#
# Why a shared namespace: the client and the health check need the server's address before it
# starts (subject.yaml's target), so the address is fixed (NETNS_IP). Base and head servers of one
# comparison run side by side, so they share the namespace (different ports); it is created by the
# first user and deleted by the last, under a lock. Nothing here touches a real interface: the /30
# exists only between the host end of our veth pair and the namespace.
#
# Environment (defaults in brackets):
#   NETNS [benchline-grpc]        namespace name
#   NETNS_HOST_IF [blgrpc0]       host end of the veth pair (its peer is blgrpc1 inside the namespace)
#   NETNS_HOST_IP [10.200.203.1]  host end's address (/30)
#   NETNS_IP [10.200.203.2]       the namespace's address, where the server listens
#   NETNS_DELAY []                optional netem delay on the host end, e.g. 1ms (needs the sch_netem module)
#
# Exit status 77 means "cannot run here" (no root, no iproute2, namespaces refused): the message
# says why, and the suite report lists the network variants as skipped with it.
set -u

NS="${NETNS:-benchline-grpc}"
HOST_IF="${NETNS_HOST_IF:-blgrpc0}"
# The namespace end: blgrpc0 -> blgrpc1 (any other name gets a 1 appended).
NS_IF="${HOST_IF%0}1"
HOST_IP="${NETNS_HOST_IP:-10.200.203.1}"
NS_IP="${NETNS_IP:-10.200.203.2}"
DELAY="${NETNS_DELAY:-}"
STATE="/run/benchline-netns/$NS"
LOCK="/run/benchline-netns/$NS.lock"
CHILD=""

say() { echo "benchline netns: $*" >&2; }
skip() { say "SKIP: $*; the network variants cannot run on this machine (the loopback variants are unaffected)"; exit 77; }

[ $# -gt 0 ] || { say "usage: netns-server.sh <command...>"; exit 2; }
[ "$(id -u)" = 0 ] || skip "network namespaces need root (CAP_SYS_ADMIN and CAP_NET_ADMIN), and this runs as uid $(id -u)"
command -v ip >/dev/null 2>&1 || skip "iproute2 ('ip') is not installed (Debian: apt-get install iproute2)"
command -v flock >/dev/null 2>&1 || skip "flock (util-linux) is not installed"
mkdir -p "$STATE/users" 2>/dev/null || skip "cannot create $STATE"

exec 9>"$LOCK"
flock -w 30 9 || { say "another process holds $LOCK for more than 30 s"; exit 1; }

# Removes the namespace and the veth pair (deleting one end deletes both).
teardown() {
  ip link del "$HOST_IF" 2>/dev/null
  ip netns del "$NS" 2>/dev/null
}

if ! ip netns exec "$NS" true 2>/dev/null; then
  teardown # a host end left behind by a killed run
  taken="$(ip -o -4 addr show to "$HOST_IP/30" 2>/dev/null)"
  [ -z "$taken" ] || skip "$HOST_IP/30 is already used on this machine ($(echo "$taken" | awk '{print $2, $4}' | head -1)); choose another private /30 with NETNS_HOST_IP and NETNS_IP"
  err="$(ip netns add "$NS" 2>&1)" || skip "ip netns add refused: $err"
  if ! err="$(ip link add "$HOST_IF" type veth peer name "$NS_IF" 2>&1)"; then teardown; skip "cannot create a veth pair: $err"; fi
  if ! err="$( { ip link set "$NS_IF" netns "$NS" \
      && ip addr add "$HOST_IP/30" dev "$HOST_IF" \
      && ip link set "$HOST_IF" up \
      && ip -n "$NS" addr add "$NS_IP/30" dev "$NS_IF" \
      && ip -n "$NS" link set "$NS_IF" up \
      && ip -n "$NS" link set lo up; } 2>&1)"; then
    teardown
    skip "cannot configure the veth pair: $err"
  fi
  say "created namespace $NS: host $HOST_IF $HOST_IP/30 <-> $NS_IF $NS_IP/30 (mtu $(cat "/sys/class/net/$HOST_IF/mtu"))"
  if [ -n "$DELAY" ]; then
    if err="$(tc qdisc add dev "$HOST_IF" root netem delay "$DELAY" 2>&1)"; then
      say "netem: $DELAY added to every packet from the host to the namespace"
    else
      say "NOTICE: netem delay $DELAY is not available here ($err); measuring the veth pair without added delay"
    fi
  fi
else
  say "joining namespace $NS ($NS_IP), already up"
fi
touch "$STATE/users/$$"
flock -u 9

cleanup() {
  trap - TERM INT EXIT
  if [ -n "$CHILD" ]; then
    kill -TERM "$CHILD" 2>/dev/null
    wait "$CHILD" 2>/dev/null
  fi
  flock -w 30 9
  rm -f "$STATE/users/$$"
  # Users that died without cleaning up (SIGKILL) do not keep the namespace alive.
  for f in "$STATE"/users/*; do
    [ -e "$f" ] || continue
    kill -0 "$(basename "$f")" 2>/dev/null || rm -f "$f"
  done
  if [ -z "$(ls -A "$STATE/users")" ]; then
    teardown
    say "removed namespace $NS and $HOST_IF"
  fi
  flock -u 9
}
trap 'cleanup; exit 143' TERM
trap 'cleanup; exit 130' INT
trap cleanup EXIT

# In the background, so the TERM trap runs at once instead of after the server exits.
ip netns exec "$NS" env BIND_HOST="$NS_IP" "$@" 9>&- &
CHILD=$!
wait "$CHILD"
status=$?
CHILD=""
exit "$status"
