# A thin front for CMake, so that two commands set everything up on a fresh Debian machine:
#   make run     install missing packages, build, compile the flagship example
#   make test    the same build, then every test (also under ASan + UBSan)
BUILD      ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
FUZZ_SECONDS ?= 600
FLAGSHIP   ?= examples/wanka.cluster
BENCH_SIZES ?= 1000 10000 100000 1000000

.PHONY: all run test build deps asan-test fuzz bench clean

all: build

deps:
	@scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) -DCLUSTERC_TESTS=ON >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

run: build
	./$(BUILD)/clusterc build $(FLAGSHIP) -o out

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)
	@$(MAKE) --no-print-directory asan-test

# The same tests with AddressSanitizer and UndefinedBehaviorSanitizer (and the arena in
# pass-through mode, so every allocation is checked).
asan-test: deps
	@cmake -S . -B $(ASAN_BUILD) -DCLUSTERC_TESTS=ON -DCLUSTERC_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null
	@cmake --build $(ASAN_BUILD) -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		ctest --test-dir $(ASAN_BUILD) --output-on-failure -j $(JOBS)

# Coverage-guided fuzzing with libFuzzer (docs/testing.md): the front end (fuzz_frontend) or,
# with FUZZ_TARGET=fuzz_sweep, sweep files. Each target keeps its corpus in FUZZ_BUILD.
FUZZ_TARGET ?= fuzz_frontend
FUZZ_ARGS_fuzz_frontend = -max_len=65536 -dict=fuzz/clusterc.dict
FUZZ_SEEDS_fuzz_frontend = fuzz/corpus stdlib examples tests/diag
FUZZ_ARGS_fuzz_sweep = -max_len=8192
FUZZ_SEEDS_fuzz_sweep = fuzz/sweep-corpus
fuzz: deps
	@CC=clang cmake -S . -B $(FUZZ_BUILD) -DCLUSTERC_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	@cmake --build $(FUZZ_BUILD) -j $(JOBS) --target $(FUZZ_TARGET)
	mkdir -p $(FUZZ_BUILD)/corpus-$(FUZZ_TARGET)
	./$(FUZZ_BUILD)/fuzz/$(FUZZ_TARGET) -max_total_time=$(FUZZ_SECONDS) $(FUZZ_ARGS_$(FUZZ_TARGET)) \
		-artifact_prefix=$(FUZZ_BUILD)/ $(FUZZ_BUILD)/corpus-$(FUZZ_TARGET) $(FUZZ_SEEDS_$(FUZZ_TARGET))

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)

# Build time, memory and bytes against cluster size (docs/performance.md); never a test.
# bench/out/bench.csv and bench.svg; BENCH_OUT, BENCH_REPEAT, BENCH_SETTLE in bench/bench.py.
bench: build
	bench/run.sh $(BUILD)/clusterc $(BENCH_SIZES)
