# What the compiler wrappers' end-to-end tests (wrapper.sh, wrapper_fallbacks.sh) share, sourced
# with their arguments SLEUTH WORKDIR [gcc|clang...]: the work directory made afresh and entered,
# the compiler families to try (default: gcc, and clang if clang-19 exists), and the reporting.
sleuth=$(realpath "$1")
rm -rf "$2" && mkdir -p "$2" && cd "$2" || exit 1
work=$(pwd)
shift 2
families=("$@")
if [ ${#families[@]} -eq 0 ]; then
  families=(gcc)
  command -v clang-19 >/dev/null 2>&1 && families+=(clang)
fi
failures=0
fail() { echo "FAIL [$family] $*"; failures=$((failures + 1)); }
ok() { echo "ok [$family] $*"; }
# instrumented FILE: the object or program carries sleuth probes
instrumented() { nm "$1" 2>/dev/null | grep -q 'sleuth_'; }
