#!/bin/bash
# Depth charges of our fast simulator and of GGP-Base (propnet, prover) interleaved game by game,
# so that each pair sees about the same machine load (docs/play.md):
#   scripts/play-side-by-side.sh SECONDS GAME... > side.tsv
# GAME is a name in ../shared/games/ggp-repository-base. Needs `npm run build` and GGP-Base built by
# ../shared/ggpbase/build.sh into $GGPBASE_WORK (default /tmp/ggpbase). Prints bench.sh's TSV lines
# (game machine status dc_per_s charges avg_depth build_ms), ours as machine `ours` (build_ms =
# grounding), each game's ours twice (before and after GGP-Base), and a `#` line with the load.
# The TSV can be passed to `npm run bench -- --playouts --ggpbase FILE`.
set -u
S=${1:?usage: play-side-by-side.sh SECONDS GAME...}
shift
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
GAMES=${GDL_GAMES_DIR:-$ROOT/../shared/games}/ggp-repository-base
export GGPBASE_GAMES=$GAMES MAX_LOAD=${MAX_LOAD-}
ours() {
  node "$ROOT/dist/cli/main.js" play "$GAMES/$1.kif" --engine ground --seconds "$S" --json --timeout 200 |
    node -e "let s='';process.stdin.on('data',(d)=>(s+=d)).on('end',()=>{const g=JSON.parse(s).engines.ground;console.log(['$1','ours','ok',g.playoutsPerSecond.toFixed(2),g.playouts,g.averageDepth.toFixed(2),(g.groundingSeconds*1000).toFixed(0)].join('\t'))})" ||
    printf '%s\tours\terror\tNA\t0\tNA\tNA\n' "$1"
}
for g in "$@"; do
  echo "# $(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg) $g"
  ours "$g"
  MACHINES=${MACHINES:-propnet prover} "$ROOT/../shared/ggpbase/bench.sh" "$g" "$S" 2>/dev/null
  ours "$g"
done
