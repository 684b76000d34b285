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

# Coverage-guided fuzzing of the front end with libFuzzer (docs/testing.md).
fuzz: deps
	@CC=clang cmake -S . -B $(FUZZ_BUILD) -DCLUSTERC_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	@cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzz_frontend
	mkdir -p $(FUZZ_BUILD)/corpus
	./$(FUZZ_BUILD)/fuzz/fuzz_frontend -max_total_time=$(FUZZ_SECONDS) -max_len=65536 \
		-dict=fuzz/clusterc.dict -artifact_prefix=$(FUZZ_BUILD)/ \
		$(FUZZ_BUILD)/corpus fuzz/corpus stdlib examples tests/diag

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)

bench: build
	bench/run.sh $(BUILD)/clusterc $(BENCH_SIZES)
