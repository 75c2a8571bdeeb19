#!/usr/bin/env bash
# Start or stop a throw-away Debian clickhouse-server (18.16) for bench:client and bench:insert,
# configured by .ci/clickhouse-config.sh (loopback only, data under /tmp, no systemd).
#   bench/server.sh start [http_port]   → prints the CHWIRE_BENCH_URL to export
#   bench/server.sh stop  [http_port]   → stops it and removes its data
# Default port 8123 (the benches' default URL); the native TCP port is http_port + 1000.
set -euo pipefail
cd "$(dirname "$0")/.."
cmd="${1:-}"; port="${2:-8123}"
dir="/tmp/chwire-bench-clickhouse.$port"
case "$cmd" in
  start)
    CH_BIN="$(command -v clickhouse-server || echo /usr/sbin/clickhouse-server)"
    [ -x "$CH_BIN" ] || { echo "clickhouse-server is not installed (apt-get install clickhouse-server)" >&2; exit 1; }
    if [ -f "$dir/pid" ] && kill -0 "$(cat "$dir/pid")" 2>/dev/null; then echo "already running: http://127.0.0.1:$port"; exit 0; fi
    rm -rf "$dir"; mkdir -p "$dir"
    .ci/clickhouse-config.sh "$dir" "$port" "$((port + 1000))"
    "$CH_BIN" --config-file="$dir/config.xml" >"$dir/stdout.log" 2>&1 &
    echo $! >"$dir/pid"
    for _ in $(seq 1 60); do
      if node -e "fetch(process.argv[1]).then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))" "http://127.0.0.1:$port/ping"; then
        echo "export CHWIRE_BENCH_URL=http://127.0.0.1:$port"; exit 0
      fi
      kill -0 "$(cat "$dir/pid")" 2>/dev/null || { cat "$dir/stdout.log" "$dir/log/server.err.log" >&2 2>/dev/null; exit 1; }
      sleep 0.5
    done
    echo "clickhouse-server did not answer on port $port" >&2; exit 1 ;;
  stop)
    if [ -f "$dir/pid" ]; then pid="$(cat "$dir/pid")"; kill "$pid" 2>/dev/null || true
      for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done; fi
    rm -rf "$dir" ;;
  *) echo "usage: $0 start|stop [http_port]" >&2; exit 2 ;;
esac
