# A thin front for CMake, so that two commands set everything up on a fresh Debian machine:
#   make run     install missing packages, build, compile the flagship example
#   make test    the same build and every test with gcc (valgrind on a sample), then with clang
#                what compilers can change (its outputs against gcc's byte for byte), then
#                crafted and hostile input under ASan + UBSan (docs/testing.md)
BUILD       ?= build
CLANG_BUILD ?= build-clang
ASAN_BUILD  ?= build-asan
FUZZ_BUILD  ?= build-fuzz
# The tests write many large outputs: into memory when /dev/shm is there (about 3 times
# faster than a disk for a 100,000-GPU build), else into /tmp.
TEST_TMPDIR ?= $(shell [ -d /dev/shm ] && [ -w /dev/shm ] && echo /dev/shm || echo /tmp)
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
# Tests at once: as many as the cores. One more (3 on two cores) was measured slower on this VM:
# the gcc suite 246 -> 293 s (docs/testing.md, "Measured").
TEST_JOBS  ?= $(JOBS)
FUZZ_SECONDS ?= 600
FLAGSHIP   ?= examples/wanka.cluster
BENCH_SIZES ?= 1000 10000 100000 1000000

.PHONY: all run test build deps clang-test asan-test fuzz bench clean

all: build

deps:
	@scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) -DCLUSTERC_TESTS=ON >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

run: build
	./$(BUILD)/clusterc build $(FLAGSHIP) -o out

test: build
	TMPDIR=$(TEST_TMPDIR) ctest --test-dir $(BUILD) --output-on-failure -j $(TEST_JOBS)
	@$(MAKE) --no-print-directory clang-test
	@$(MAKE) --no-print-directory asan-test

# Again with clang: what can differ between compilers (tests labelled `clang`: the `compilers`
# test, every artifact and diagnostic against the gcc build's byte for byte, so the readers of
# the artifacts run once; the unit tests, goldens, and every example twice under ASLR). Then
# under AddressSanitizer and UndefinedBehaviorSanitizer, the arena in pass-through mode so every
# allocation is checked: the tests labelled `sanitize` (crafted and hostile input, every example,
# the output directory under faults). The whole suite in either: CLANG_CTEST_ARGS= or
# ASAN_CTEST_ARGS= (docs/testing.md, "Three builds"). Within ten minutes on two cores.
CLANG_DETERMINISM ?= 2
CLANG_CTEST_ARGS ?= -L '^clang$$'
ASAN_CTEST_ARGS ?= -L '^sanitize$$'
clang-test: build
	@CC=clang cmake -S . -B $(CLANG_BUILD) -DCLUSTERC_TESTS=ON \
		-DCLUSTERC_REFERENCE=$(abspath $(BUILD))/clusterc >/dev/null
	@cmake --build $(CLANG_BUILD) -j $(JOBS)
	TMPDIR=$(TEST_TMPDIR) DETERMINISM_RUNS=$(CLANG_DETERMINISM) \
		ctest --test-dir $(CLANG_BUILD) --output-on-failure -j $(TEST_JOBS) $(CLANG_CTEST_ARGS)

asan-test: deps
	@cmake -S . -B $(ASAN_BUILD) -DCLUSTERC_TESTS=ON -DCLUSTERC_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null
	@cmake --build $(ASAN_BUILD) -j $(JOBS)
	TMPDIR=$(TEST_TMPDIR) ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		ctest --test-dir $(ASAN_BUILD) --output-on-failure -j $(TEST_JOBS) $(ASAN_CTEST_ARGS)

# Coverage-guided fuzzing with libFuzzer (docs/testing.md): every target in turn, each for
# FUZZ_SECONDS, or only those of FUZZ_TARGET (scripts/fuzz.sh has their seeds and options).
FUZZ_TARGETS ?= fuzz_frontend fuzz_sweep fuzz_build fuzz_set fuzz_row fuzz_multi
FUZZ_TARGET ?= $(FUZZ_TARGETS)
FUZZ_SECONDS ?= 300
fuzz: deps
	@CC=clang cmake -S . -B $(FUZZ_BUILD) -DCLUSTERC_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	@cmake --build $(FUZZ_BUILD) -j $(JOBS) --target $(FUZZ_TARGET)
	TMPDIR=$(TEST_TMPDIR) scripts/fuzz.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGET)

clean:
	rm -rf $(BUILD) $(CLANG_BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)

# Build time, memory and bytes against cluster size (docs/performance.md); never a test.
# bench/out/bench.csv and bench.svg; BENCH_OUT, BENCH_REPEAT, BENCH_SETTLE in bench/bench.py.
bench: build
	bench/run.sh $(BUILD)/clusterc $(BENCH_SIZES)
	@# The planner against published runs (docs/parallelism.md, "Accuracy"): mean and max error.
	@CLUSTERC_STDLIB=$(CURDIR)/stdlib $(BUILD)/tests/unit_tests --run plan "accuracy: published runs" | \
		grep -E "published|accuracy:"
