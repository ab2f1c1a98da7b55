#!/bin/sh
# Renders one of the templates in deploy/ha/ to standard output: every ${NAME} in it is replaced
# by the environment variable NAME. A variable that is not set stops the rendering (exit 1) and
# names it, so a half-filled configuration is never written. bench/ha/cluster.ts renders the same
# templates with this script for the test cluster (loopback addresses and ports, a temporary dir).
#
#   set -a; . deploy/ha/cluster.env; set +a
#   MEMBER=pg1 ADDR=10.0.0.21 deploy/ha/render.sh deploy/ha/patroni.yml > /etc/patroni/config.yml
#   MEMBER=pg1 ADDR=10.0.0.21 deploy/ha/render.sh deploy/ha/etcd.yml > /etc/etcd/berth.yml
#   deploy/ha/render.sh deploy/ha/haproxy.cfg > /etc/haproxy/haproxy.cfg
#
# Values are inserted as they are: keep passwords to letters, digits, '-' and '_'.
set -eu
if [ $# -ne 1 ]; then
  echo "usage: $0 TEMPLATE  (variables from the environment; see deploy/ha/cluster.env)" >&2
  exit 2
fi
# Defaults: the standard ports and Debian's paths. Any of them may be set instead.
: "${PG_PORT:=5432}" "${REST_PORT:=8008}"
: "${MEMBER1_PG_PORT:=$PG_PORT}" "${MEMBER2_PG_PORT:=$PG_PORT}" "${MEMBER3_PG_PORT:=$PG_PORT}"
: "${MEMBER1_REST_PORT:=$REST_PORT}" "${MEMBER2_REST_PORT:=$REST_PORT}" "${MEMBER3_REST_PORT:=$REST_PORT}"
: "${DATA_DIR:=/var/lib/postgresql/15/berth}" "${SOCKET_DIR:=/var/run/postgresql}"
: "${BIN_DIR:=/usr/lib/postgresql/15/bin}"
: "${ETCD_CLIENT_PORT:=2379}" "${ETCD_PEER_PORT:=2380}" "${ETCD_DATA_DIR:=/var/lib/etcd/berth}"
: "${PRIMARY_PORT:=5000}" "${REPLICAS_PORT:=5001}" "${HAPROXY_STATS_SOCKET:=/run/haproxy/admin.sock}"
export PG_PORT REST_PORT MEMBER1_PG_PORT MEMBER2_PG_PORT MEMBER3_PG_PORT MEMBER1_REST_PORT \
  MEMBER2_REST_PORT MEMBER3_REST_PORT DATA_DIR SOCKET_DIR BIN_DIR ETCD_CLIENT_PORT ETCD_PEER_PORT \
  ETCD_DATA_DIR PRIMARY_PORT REPLICAS_PORT HAPROXY_STATS_SOCKET
# The whole file is read first, so nothing is written when a variable is missing.
exec perl -0777 -pe 's/\$\{([A-Z0-9_]+)\}/defined $ENV{$1} ? $ENV{$1} : do { print STDERR "$ARGV: \${$1} is not set\n"; exit 1 }/ge' "$1"
