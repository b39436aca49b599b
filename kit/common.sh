# common.sh: what build.sh, start.sh and stop.sh share: where the kit lives,
# the versions, and how a process the kit started is found again. Sourced,
# never run.

# The versions the project is checked against (client-go v0.37.2's peers).
K8S_VERSION=${K8S_VERSION:-v1.37.2}
ETCD_VERSION=${ETCD_VERSION:-v3.7.3}

# KIT_DIR defaults to .kit at the repository's root (git ignores it), so
# nothing outside the repository is touched unless you say so. A relative
# KIT_DIR is taken from the directory you run the script in.
KIT_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
KIT_DIR=${KIT_DIR:-$KIT_ROOT/.kit}
mkdir -p "$KIT_DIR"
KIT_DIR=$(cd "$KIT_DIR" && pwd -P)
BIN=$KIT_DIR/bin
RUN=$KIT_DIR/run
PKI=$RUN/pki

ts() { date -u +%H:%M:%S; }
say() { echo "[$(ts)] $*"; }

# alive NAME: the process in $RUN/NAME.pid runs, and runs $BIN/NAME (a pid
# the system has since given to another program is not ours).
alive() {
  local pf=$RUN/$1.pid pid
  [[ -f $pf ]] || return 1
  pid=$(cat "$pf")
  kill -0 "$pid" 2>/dev/null || return 1
  [[ $(exe_of "$pid") == "$BIN/$1" ]]
}

# exe_of PID: the program the process runs (" (deleted)" when the file was
# rebuilt since is cut off; the process is still the one we started).
exe_of() {
  local exe
  if [[ -e /proc/$1/exe ]]; then
    exe=$(readlink "/proc/$1/exe" 2>/dev/null) || true
  else
    exe=$(ps -p "$1" -o comm= 2>/dev/null) || true # macOS: no /proc
  fi
  echo "${exe% (deleted)}"
}

# port_busy PORT: something listens on 127.0.0.1:PORT.
port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# stop_one NAME: SIGTERM to the process of $RUN/NAME.pid if it is ours,
# SIGKILL if it is still there 20 s later. Never by name.
stop_one() {
  local name=$1 pf=$RUN/$1.pid pid
  [[ -f $pf ]] || return 0
  pid=$(cat "$pf")
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "$name: pid $pid had already ended"
  elif [[ $(exe_of "$pid") != "$BIN/$name" ]]; then
    echo "$name: pid $pid now runs $(exe_of "$pid"), not $BIN/$name: left alone"
  else
    kill -TERM "$pid"
    for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    if kill -0 "$pid" 2>/dev/null; then
      echo "$name: pid $pid still running 20 s after SIGTERM: SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
    fi
    echo "$name: stopped pid $pid"
  fi
  rm -f "$pf"
}
