# Sourced by the test and bench scripts: what each of them needs the same way. The caller defines `say` first.

# free_port FIRST: the first port from FIRST that nothing on 127.0.0.1 accepts connections on and that no script on
# this machine chose in the last hour. Two checkouts' `make test` side by side reach the same steps together, and
# both would otherwise pick a port before either binds it; choices are recorded, under a lock, in PORT_REGISTRY.
PORT_REGISTRY=${PORT_REGISTRY:-${TMPDIR:-/tmp}/chidian-ports}
free_port() {
    local port=$1 since
    since=$(($(date +%s) - 3600))
    (
        flock 9
        touch "$PORT_REGISTRY"
        while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null ||
            awk -v p="$port" -v t="$since" '$1 == p && $2 >= t { found = 1 } END { exit !found }' "$PORT_REGISTRY"; do
            port=$((port + 1))
        done
        { awk -v t="$since" '$2 >= t' "$PORT_REGISTRY"; echo "$port $(date +%s)"; } > "$PORT_REGISTRY.new"
        mv "$PORT_REGISTRY.new" "$PORT_REGISTRY"
        echo "$port"
    ) 9>>"$PORT_REGISTRY.lock"
}

# need_package COMMAND PACKAGE: installs Debian's PACKAGE when COMMAND is missing (CI starts on a new machine).
need_package() {
    command -v "$1" >/dev/null && return 0
    say "installing $2"
    "$(dirname "${BASH_SOURCE[0]}")/apt-install.sh" "$2"
}
