#!/usr/bin/env bash
# The +1 % increment of the orders medallion (initial run over N events, then N/100 more in 10 files), silver with
# deletion vectors on and off; prints one JSON object per mode (increment wall/CPU ms, bytes silver's MERGE wrote
# and removed, DVs added, silver's size). Usage: bench/incremental.sh [--events 2000000] [--dvs on|off|both] [--xmx 1g]
set -euo pipefail
exec "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/run.sh" incremental "$@"
