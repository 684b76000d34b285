/*
 * main.c — the command line: options, commands, exit codes (PRODUCT §5).
 *
 *   clusterc check FILE...            parse and check; diagnostics only
 *   clusterc build FILE [-o DIR]      the whole pipeline; artifacts into DIR
 *   clusterc compare FILE [-o DIR]    every scenario built; the comparison into DIR
 *   clusterc fmt FILE... [--check]    canonical layout, comments kept
 *   clusterc schema                   the field tables of docs/language.md
 *   clusterc verify DIR --discovered FILE...  the fabric as found against DIR's plan
 *   clusterc diff OLD_DIR NEW_DIR     what changed between two builds
 *
 * Global options may appear anywhere: --diagnostics=text|json, --color=auto|always|never,
 * -q, -v, --stdlib=DIR, --error-limit=N. `-` names standard input. Exit codes: 0 success,
 * 1 errors in the spec, 2 requirements that cannot be met, 64 usage, 70 internal, 74 I/O,
 * 75 the output directory is being written by another clusterc.
 *
 * Standard streams: a closed standard output or error is reopened on /dev/full (standard
 * input on /dev/null) before anything else opens a file, so no artifact can land on fd 1 or 2,
 * and whatever clusterc then has to say there fails as it would on a full disk (exit 74, the
 * output directory untouched). SIGPIPE is ignored: a reader that went away is a write error.
 */
#include "driver.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Reopens the standard descriptors that are closed (see the top of the file). */
static void std_streams_guard(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			continue;
		int got = open(fd ? "/dev/full" : "/dev/null", fd ? O_WRONLY : O_RDONLY);
		if (got < 0)
			got = open("/dev/null", fd ? O_WRONLY : O_RDONLY);
		if (got >= 0 && got != fd) {
			dup2(got, fd);
			close(got);
		}
	}
}

bool driver_streams_ok(void)
{
	static bool said;
	errno = 0;
	bool out = fflush(stdout) == 0 && !ferror(stdout);
	int why = errno ? errno : EIO;
	if (!out && !said) {
		said = true;
		fprintf(stderr, "clusterc: error: cannot write to standard output: %s\n", strerror(why));
	}
	bool err = fflush(stderr) == 0 && !ferror(stderr);
	return out && err;
}

static const char usage_text[] =
	"usage: clusterc COMMAND [OPTIONS] FILE...\n"
	"\n"
	"commands:\n"
	"  check FILE...                 parse and check specs; print diagnostics only\n"
	"        [--scenario NAME] [--set DECL.FIELD=VALUE]...\n"
	"  build FILE [-o DIR]           the whole pipeline; artifacts into DIR (default ./out)\n"
	"        [--scenario NAME] [--set DECL.FIELD=VALUE]... [--emit LIST] [--force]\n"
	"        [--emit all]            every artifact, the per-switch files of a fabric\n"
	"                                beyond 1,024 switches included (by default on demand)\n"
	"        [--timings] [--dump=PASS [--dump-max=N]] [--time-limit SECONDS]\n"
	"        [--from OLD_DIR]        grow from an earlier build: keep its names, places,\n"
	"                                ports and cables; the change plan in DIR/expansion/\n"
	"        [--search=milp|exhaustive]\n"
	"  compare FILE [-o DIR]         build the base design and every scenario; comparison.csv,\n"
	"        [--scenarios A,B,...]   .json, .md and report.html with the Pareto frontier\n"
	"        [--sweep FILE.yaml]     (default DIR ./compare); --sweep: a grid or list of\n"
	"        [--objectives A,B,...]  overrides as the scenarios; --objectives: what the\n"
	"        [--jobs N]              frontier is over; --jobs: builds at once (default: cores)\n"
	"        [--slurm DIR [--submit]] a Slurm job array of shards and a merge into -o DIR;\n"
	"        [--shard I/N] [--merge D] what its tasks run: rows I mod N into -o FILE, and\n"
	"                                the comparison from the shards in D\n"
	"  fmt FILE... [--check]         rewrite files in canonical layout (comments kept);\n"
	"                                with --check, only report files that would change\n"
	"  verify DIR --discovered FILE  compare a discovered fabric (ibnetdiscover output or\n"
	"        [--fabric NAME]         lldpctl -f json) with the plan of build DIR: every\n"
	"                                miswired, missing and extra cable; exit 2 on differences\n"
	"  diff OLD_DIR NEW_DIR          what changed between two builds: capex, power and TCO,\n"
	"                                devices, cables, ports, files, plans; exit 2 on changes\n"
	"  schema                        print every declaration kind and its fields (Markdown)\n"
	"  tokens FILE                   print the tokens of a file (for debugging)\n"
	"\n"
	"options:\n"
	"  --diagnostics=text|json       how errors are printed (default text)\n"
	"  --color=auto|always|never     colour in text diagnostics (NO_COLOR turns it off)\n"
	"  --stdlib=DIR                  where `import std.NAME` looks (also $CLUSTERC_STDLIB)\n"
	"  --error-limit=N               stop after N errors (default 50, 0 for no limit)\n"
	"  -q, --quiet                   print nothing but diagnostics\n"
	"  -v, --verbose                 say more\n"
	"  -h, --help                    this text\n"
	"  --version                     the version\n"
	"\n"
	"FILE may be - for standard input.\n"
	"exit status: 0 ok, 1 errors in the spec, 2 requirements cannot be met, 64 usage,\n"
	"70 internal error, 74 input/output error.\n";

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "clusterc: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'clusterc --help'.\n");
	return EXIT_USAGE;
}

static const char *option_value(const char *arg, const char *name)
{
	size_t n = strlen(name);
	if (strncmp(arg, name, n) == 0 && arg[n] == '=')
		return arg + n + 1;
	return NULL;
}

/* Where the standard library is: --stdlib, $CLUSTERC_STDLIB, beside an installed binary
 * (../share/clusterc/stdlib), or the source tree it was built from. */
static const char *find_stdlib(const Options *o)
{
	if (o->stdlib)
		return o->stdlib;
	const char *env = getenv("CLUSTERC_STDLIB");
	if (env && *env)
		return env;
	static char installed[4096 + 64];
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		exe[n] = 0;
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = 0;
			snprintf(installed, sizeof installed, "%s/../share/clusterc/stdlib", exe);
			if (access(installed, R_OK) == 0)
				return installed;
		}
	}
	return CLUSTERC_SOURCE_DIR "/stdlib";
}

static bool want_color(const char *mode)
{
	const char *no = getenv("NO_COLOR");
	if (no && *no)
		return false;
	if (strcmp(mode, "always") == 0)
		return true;
	if (strcmp(mode, "never") == 0)
		return false;
	const char *term = getenv("TERM");
	return isatty(STDERR_FILENO) && !(term && strcmp(term, "dumb") == 0);
}

int main(int argc, char **argv)
{
	std_streams_guard();
	signal(SIGPIPE, SIG_IGN);
	Options o = {.error_limit = DEFAULT_ERROR_LIMIT};
	const char *color = "auto";
	const char *diagnostics = "text";
	const char **files = xmalloc(sizeof(char *) * (size_t)(argc + 1));
	const char **discovered = xmalloc(sizeof(char *) * (size_t)(argc + 1));
	CliOverride *sets = xmalloc(sizeof(CliOverride) * (size_t)(argc + 1));
	int nfiles = 0;
	bool options_done = false;
	int rc;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		if (options_done || a[0] != '-' || strcmp(a, "-") == 0) {
			if (!o.command)
				o.command = a;
			else
				files[nfiles++] = a;
			continue;
		}
		if (strcmp(a, "--") == 0) {
			options_done = true;
		} else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			fputs(usage_text, stdout);
			rc = EXIT_OK;
			goto out;
		} else if (strcmp(a, "--version") == 0) {
			printf("clusterc %s\n", CLUSTERC_VERSION);
			rc = EXIT_OK;
			goto out;
		} else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
			o.quiet = true;
		} else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
			o.verbose = true;
		} else if (strcmp(a, "--check") == 0) {
			o.fmt_check = true;
		} else if (strcmp(a, "--force") == 0) {
			o.force = true;
		} else if ((v = option_value(a, "--search"))) {
			if (strcmp(v, "exhaustive") && strcmp(v, "milp")) {
				rc = usage_error("--search must be milp or exhaustive, not '%s'", v);
				goto out;
			}
			o.exhaustive = strcmp(v, "exhaustive") == 0;
		} else if (strcmp(a, "--verify") == 0) {
			o.verify = true;
		} else if (strcmp(a, "--timings") == 0) {
			o.timings = true;
		} else if ((v = option_value(a, "--dump-max"))) {
			char *end;
			long n = strtol(v, &end, 10);
			if (*end || n < 1 || end == v) {
				rc = usage_error("--dump-max needs a positive whole number, not '%s'", v);
				goto out;
			}
			o.dump_max = n;
		} else if ((v = option_value(a, "--dump"))) {
			o.dump = v;
		} else if ((v = option_value(a, "--output")) || (v = option_value(a, "--emit")) ||
			   strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0 || strcmp(a, "--emit") == 0) {
			bool emit = strncmp(a, "--emit", 6) == 0;
			if (!v && ++i >= argc) {
				rc = usage_error("%s needs a value", a);
				goto out;
			}
			*(emit ? &o.emit : &o.output) = v ? v : argv[i];
		} else if ((v = option_value(a, "--time-limit")) || strcmp(a, "--time-limit") == 0) {
			if (!v && ++i >= argc) {
				rc = usage_error("%s needs a number of seconds", a);
				goto out;
			}
			char *end;
			o.time_limit = strtod(v ? v : argv[i], &end);
			if (*end || !(o.time_limit > 0)) {
				rc = usage_error("--time-limit needs a positive number of seconds, not '%s'",
						 v ? v : argv[i]);
				goto out;
			}
		} else if ((v = option_value(a, "--from")) || strcmp(a, "--from") == 0) {
			if (!v && ++i >= argc) {
				rc = usage_error("%s needs the directory of an earlier build", a);
				goto out;
			}
			o.from = v ? v : argv[i];
		} else if ((v = option_value(a, "--diagnostics"))) {
			diagnostics = v;
		} else if ((v = option_value(a, "--color")) || (v = option_value(a, "--colour"))) {
			color = v;
		} else if ((v = option_value(a, "--stdlib"))) {
			o.stdlib = v;
		} else if ((v = option_value(a, "--error-limit"))) {
			char *end;
			long n = strtol(v, &end, 10);
			if (*end || n < 0 || n > 1000000) {
				rc = usage_error("--error-limit needs a number, not '%s'", v);
				goto out;
			}
			o.error_limit = (int)n;
		} else if ((v = option_value(a, "--scenarios")) || (v = option_value(a, "--sweep")) ||
			   (v = option_value(a, "--objectives")) || strcmp(a, "--scenarios") == 0 ||
			   strcmp(a, "--sweep") == 0 || strcmp(a, "--objectives") == 0) {
			if (!v && ++i >= argc) {
				rc = usage_error("%s needs a value", a);
				goto out;
			}
			const char **slot = strncmp(a, "--scenarios", 11) == 0 ? &o.scenarios
					    : strncmp(a, "--sweep", 7) == 0     ? &o.sweep
										: &o.objectives;
			*slot = v ? v : argv[i];
		} else if (strcmp(a, "--submit") == 0) {
			o.submit = true;
		} else if ((v = option_value(a, "--slurm")) || strcmp(a, "--slurm") == 0 ||
			   (v = option_value(a, "--merge")) || strcmp(a, "--merge") == 0 ||
			   (v = option_value(a, "--shard")) || strcmp(a, "--shard") == 0) {
			if (!v && ++i >= argc) {
				rc = usage_error("%s needs a value", a);
				goto out;
			}
			const char *val = v ? v : argv[i];
			if (strncmp(a, "--shard", 7) == 0) {
				int si, sn, used = 0;
				if (sscanf(val, "%d/%d%n", &si, &sn, &used) != 2 || val[used] ||
				    sn < 1 || sn > 100000 || si < 0 || si >= sn) {
					rc = usage_error("--shard needs I/N with 0 <= I < N, not '%s'", val);
					goto out;
				}
				o.shard_i = si, o.shard_n = sn;
			} else if (strncmp(a, "--slurm", 7) == 0) {
				o.slurm = val;
			} else {
				o.merge = val;
			}
		} else if ((v = option_value(a, "--jobs")) || strcmp(a, "--jobs") == 0 ||
			   strcmp(a, "-j") == 0) {
			if (!v && ++i >= argc) {
				rc = usage_error("%s needs a number", a);
				goto out;
			}
			char *end;
			long n = strtol(v ? v : argv[i], &end, 10);
			if (*end || n < 1 || n > 1024) {
				rc = usage_error("--jobs needs a number from 1 to 1024, not '%s'",
						 v ? v : argv[i]);
				goto out;
			}
			o.jobs = (int)n;
		} else if ((v = option_value(a, "--discovered")) || strcmp(a, "--discovered") == 0 ||
			   (v = option_value(a, "--fabric")) || strcmp(a, "--fabric") == 0) {
			bool fabric = strncmp(a, "--fabric", 8) == 0;
			if (!v && ++i >= argc) {
				rc = usage_error("%s needs a value", a);
				goto out;
			}
			if (fabric)
				o.fabric = v ? v : argv[i];
			else
				discovered[o.ndiscovered++] = v ? v : argv[i];
		} else if ((v = option_value(a, "--scenario")) || strcmp(a, "--scenario") == 0) {
			if (!v && ++i >= argc) {
				rc = usage_error("%s needs a scenario name", a);
				goto out;
			}
			o.scenario = v ? v : argv[i];
		} else if ((v = option_value(a, "--set")) || strcmp(a, "--set") == 0) {
			if (!v && ++i >= argc) {
				rc = usage_error("%s needs DECL.FIELD=VALUE", a);
				goto out;
			}
			sets[o.nsets++] = (CliOverride){.text = v ? v : argv[i]};
		} else {
			rc = usage_error("unknown option '%s'", a);
			goto out;
		}
	}
	if (strcmp(diagnostics, "text") == 0) {
		o.dopt.format = DIAG_TEXT;
	} else if (strcmp(diagnostics, "json") == 0) {
		o.dopt.format = DIAG_JSON;
	} else {
		rc = usage_error("--diagnostics must be text or json, not '%s'", diagnostics);
		goto out;
	}
	if (strcmp(color, "auto") && strcmp(color, "always") && strcmp(color, "never")) {
		rc = usage_error("--color must be auto, always or never, not '%s'", color);
		goto out;
	}
	o.dopt.color = o.dopt.format == DIAG_TEXT && want_color(color);
	o.dopt.error_limit = o.error_limit;
	o.sets = sets;
	o.discovered = discovered;
	o.stdlib = find_stdlib(&o);
	if (o.fmt_check && o.command && strcmp(o.command, "fmt") != 0) {
		rc = usage_error("%s is an option of fmt", "--check");
		goto out;
	}
	/* Standard input can be read once: a second '-' would read it empty. */
	for (int i = 0, stdin_seen = 0; i < nfiles; i++) {
		if (strcmp(files[i], "-") == 0 && stdin_seen++) {
			rc = usage_error("%s", "'-' (standard input) can be given only once");
			goto out;
		}
	}

	if (!o.command) {
		fputs(usage_text, stderr);
		rc = EXIT_USAGE;
	} else if (strcmp(o.command, "check") == 0) {
		rc = nfiles ? cmd_check(&o, files, nfiles) : usage_error("%s needs at least one FILE", "check");
	} else if (strcmp(o.command, "build") == 0) {
		rc = nfiles == 1 ? cmd_build(&o, files[0])
				 : usage_error("%s needs exactly one FILE", "build");
	} else if (strcmp(o.command, "compare") == 0) {
		rc = nfiles == 1 ? cmd_compare(&o, files[0])
				 : usage_error("%s needs exactly one FILE", "compare");
	} else if (strcmp(o.command, "fmt") == 0) {
		rc = nfiles ? cmd_fmt(&o, files, nfiles) : usage_error("%s needs at least one FILE", "fmt");
	} else if (strcmp(o.command, "tokens") == 0) {
		rc = nfiles == 1 ? cmd_tokens(&o, files[0]) : usage_error("%s needs one FILE", "tokens");
	} else if (strcmp(o.command, "verify") == 0) {
		rc = nfiles != 1 ? usage_error("%s needs exactly one DIR (a build's output)", "verify")
		     : !o.ndiscovered ? usage_error("%s needs --discovered FILE", "verify")
				      : cmd_verify(&o, files[0]);
	} else if (strcmp(o.command, "diff") == 0) {
		rc = nfiles == 2 ? cmd_diff(&o, files[0], files[1])
				 : usage_error("%s needs OLD_DIR and NEW_DIR (two builds' output)", "diff");
	} else if (strcmp(o.command, "schema") == 0) {
		schema_print_markdown(stdout);
		rc = fflush(stdout) == 0 ? EXIT_OK : EXIT_IO;
	} else {
		const char *cmds[] = {"check", "build", "compare", "fmt", "schema", "tokens", "verify",
				      "diff"};
		const char *s = suggest(o.command, cmds, 8);
		if (s) {
			fprintf(stderr, "clusterc: unknown command '%s'; did you mean '%s'?\n", o.command, s);
			rc = EXIT_USAGE;
		} else {
			rc = usage_error("unknown command '%s'", o.command);
		}
	}
out:
	free(files);
	free(discovered);
	free(sets);
	return rc;
}
