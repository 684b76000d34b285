/*
 * replay_main.c — runs files through the fuzz target without libFuzzer, so the corpus (and any
 * input that once crashed) is replayed by `make test` under the sanitizers.
 */
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		if (!f) {
			perror(argv[i]);
			return 74;
		}
		unsigned char *buf = NULL;
		size_t len = 0, cap = 0, n;
		do {
			if (len == cap) {
				cap = cap ? cap * 2 : 65536;
				buf = realloc(buf, cap);
				if (!buf)
					return 70;
			}
			n = fread(buf + len, 1, cap - len, f);
			len += n;
		} while (n > 0);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, len);
		free(buf);
	}
	printf("replayed %d inputs\n", argc - 1);
	return 0;
}
