# Sourced by the test and bench scripts: what each of them needs the same way. The caller defines `say` first.

# free_port FIRST: the first port from FIRST that nothing on 127.0.0.1 accepts connections on.
free_port() {
    local port=$1
    while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do port=$((port + 1)); done
    echo "$port"
}

# need_package COMMAND PACKAGE: installs Debian's PACKAGE when COMMAND is missing (CI starts on a new machine).
need_package() {
    command -v "$1" >/dev/null && return 0
    say "installing $2"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$2" >/dev/null
}
