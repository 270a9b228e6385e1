# compiled_binaries FILE... prints each FILE that is a compiled binary,
# known by its magic number: ELF (Linux), Mach-O thin or universal (macOS;
# the universal magic is also a Java class file's, also a compiled file),
# or PE (Windows: "MZ" whose header points at "PE\0\0"). It reads at most
# a few bytes of each file with od and wc (POSIX), so it needs no grep -P;
# a file it cannot read is an error (exit status 1), never a pass.
# Sourced by .ci/run and .ci/binaries_test.sh.

# magic FILE OFFSET COUNT prints COUNT bytes of FILE from OFFSET as
# lowercase hex without spaces.
magic() {
  local hex
  hex=$(od -An -tx1 -j "$2" -N "$3" -- "$1") || return
  printf '%s' "${hex//[$' \n']/}"
}

# is_binary FILE: status 0 for a compiled binary, 1 for another file, 2
# when FILE cannot be read.
is_binary() {
  local file=$1 m b size offset
  m=$(magic "$file" 0 4) || return 2
  case "$m" in
    7f454c46) return 0 ;;                                         # ELF
    feedface | feedfacf | cefaedfe | cffaedfe | cafebabe | bebafeca) return 0 ;; # Mach-O
    4d5a*) ;;                                                     # MZ: maybe PE
    *) return 1 ;;
  esac
  size=$(wc -c <"$file") || return 2
  [ "$size" -ge 64 ] || return 1
  b=$(od -An -tu1 -j 60 -N 4 -- "$file") || return 2 # e_lfanew, little-endian
  set -- $b
  offset=$(($1 + 256 * $2 + 65536 * $3 + 16777216 * $4))
  [ $((offset + 4)) -le "$size" ] || return 1
  m=$(magic "$file" "$offset" 4) || return 2
  [ "$m" = 50450000 ]
}

compiled_binaries() {
  local f status
  for f in "$@"; do
    [ -L "$f" ] && continue # a symlink's target is checked as itself
    if [ ! -r "$f" ]; then
      echo "compiled_binaries: cannot read $f" >&2
      return 1
    fi
    status=0
    is_binary "$f" || status=$?
    case $status in
      0) printf '%s\n' "$f" ;;
      1) ;;
      *) echo "compiled_binaries: cannot read $f" >&2; return 1 ;;
    esac
  done
}
