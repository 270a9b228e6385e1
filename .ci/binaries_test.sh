#!/usr/bin/env bash
# Tests compiled_binaries (.ci/binaries.sh) on one file of each kind.
set -euo pipefail
. "$(dirname "$0")/binaries.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
printf '\177ELF\002\001\001' >elf
printf '\317\372\355\376\007\000\000\001' >macho64      # 0xfeedfacf, little-endian
printf '\316\372\355\376\007\000\000\000' >macho32      # 0xfeedface, little-endian
printf '\312\376\272\276\000\000\000\002' >universal    # 0xcafebabe
{ printf 'MZ'; head -c 58 /dev/zero; printf '\100\000\000\000'; printf 'PE\000\000'; } >pe # e_lfanew 64
{ printf 'MZ'; head -c 58 /dev/zero; printf '\100\000\000\000'; printf 'XX\000\000'; } >mz-not-pe
printf 'MZ is a text file that starts like a DOS header\n' >mz-text
printf 'MZ' >mz-short
printf 'package main\n' >main.go
: >empty
ln -s elf link
want=$'elf\nmacho64\nmacho32\nuniversal\npe'
got=$(compiled_binaries elf macho64 macho32 universal pe mz-not-pe mz-text mz-short main.go empty link)
if [ "$got" != "$want" ]; then
  printf 'compiled_binaries: got\n%s\nwant\n%s\n' "$got" "$want" >&2
  exit 1
fi
if compiled_binaries main.go missing 2>/dev/null; then
  echo "compiled_binaries: a missing file passed" >&2
  exit 1
fi
echo "ok  .ci/binaries_test.sh"
