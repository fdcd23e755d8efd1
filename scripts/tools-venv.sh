# Sourced by the scripts that install pinned Python tools (scripts/verify-packages.sh, .ci/run).
#
# install_venv DIR PACKAGE VERSION COMMAND: installs PACKAGE==VERSION into the virtual
# environment DIR, made anew, unless DIR has that version and its command COMMAND.
install_venv() {
    local dir="$1" package="$2" version="$3" command="$4"
    mkdir -p "$(dirname "$dir")"
    # One install at a time for each environment: .ci/run's stages that run side by side may
    # both need one (the packages and the validator proofs need p2d), and the second waits for
    # the first, then finds it made.
    (
        flock 8
        if [[ -x "$dir/bin/$command" ]] &&
            [[ "$("$dir/bin/python" -m pip show "$package" 2>/dev/null)" == *"Version: $version"* ]]; then
            exit 0
        fi
        echo "== installing $package $version into $dir"
        rm -rf "$dir"
        if ! python3 -m venv "$dir" 2>/dev/null; then
            # Debian's own python3 keeps venv in a package of its own.
            apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null
            python3 -m venv "$dir"
        fi
        "$dir/bin/python" -m pip install --quiet --disable-pip-version-check "$package==$version"
    ) 8>"$dir.lock"
}
