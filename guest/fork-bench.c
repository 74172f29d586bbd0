// SPDX-License-Identifier: GPL-2.0
/*
 * fork() and exit() as they use task_struct's slab cache (issue 29), for a
 * boot with a slab_min_order=<order>,task_struct command line against one
 * without: run in each, the host divides the figures.
 *
 *   fork-bench PREFIX ROUNDS PAIRS LIVE...
 *
 * Each round:
 * - PAIRS times, fork() a child that exits at once and reap it: a task_struct
 *   freed and allocated again, as a shell does;
 * - for each LIVE count, fork that many children that wait on a pipe, then
 *   let them all exit and reap them: task_structs that need new slabs.
 * - a calibration that uses no task_struct: 50 000 pipe round trips of one
 *   byte within the process, meant to take out the host's drift between
 *   boots under emulation (scripts/bench.sh reports the times divided by it
 *   beside the raw ones: it does not follow that drift).
 * Prints "# bench: PREFIX.fork_exit_ns N" (per pair), PREFIX.calib_ns (per
 * round trip) and, per LIVE count, PREFIX.fork_live_<LIVE>_ns (fork to reap,
 * per child) and PREFIX.bytes_per_task_<LIVE> (task_struct's slab bytes per
 * object in use with the children alive, from /proc/slabinfo, first round):
 * medians of the rounds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#define MAX_ROUNDS	16
#define MAX_LIVE	8
#define CALIB_TRIPS	50000

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

static long long median(long long *v, int n)
{
	qsort(v, n, sizeof(*v), cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Slab bytes per task_struct in use, from /proc/slabinfo; -1 if not there. */
static long long task_struct_bytes(void)
{
	unsigned long active, num, size, perslab, pages, a, b, c, slabs;
	char line[512], name[64];
	FILE *f = fopen("/proc/slabinfo", "r");
	long long ret = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63s %lu %lu %lu %lu %lu : tunables %lu %lu %lu : slabdata %*u %lu",
			   name, &active, &num, &size, &perslab, &pages, &a, &b, &c, &slabs) != 10 ||
		    strcmp(name, "task_struct") || !active)
			continue;
		ret = (long long)slabs * pages * sysconf(_SC_PAGESIZE) / active;
	}
	fclose(f);
	return ret;
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

/* ns per one-byte round trip through a pipe, @n of them */
static long long calibrate(int n)
{
	long long t;
	int fd[2], i;
	char c = 0;

	if (pipe(fd))
		die("pipe");
	t = now_ns();
	for (i = 0; i < n; i++)
		if (write(fd[1], &c, 1) != 1 || read(fd[0], &c, 1) != 1)
			die("calibration");
	t = now_ns() - t;
	close(fd[0]);
	close(fd[1]);
	return t / n;
}

int main(int argc, char **argv)
{
	static long long pair_ns[MAX_ROUNDS], calib_ns[MAX_ROUNDS];
	static long long live_ns[MAX_LIVE][MAX_ROUNDS];
	long long bytes[MAX_LIVE];
	int rounds, pairs, nlive, r, i, l;
	const char *prefix;
	int live[MAX_LIVE];
	long long t, reap;
	pid_t pid;

	if (argc < 4 || argc - 4 > MAX_LIVE) {
		fprintf(stderr, "usage: fork-bench PREFIX ROUNDS PAIRS [LIVE...] (at most %d)\n",
			MAX_LIVE);
		return 2;
	}
	prefix = argv[1];
	rounds = atoi(argv[2]);
	pairs = atoi(argv[3]);
	nlive = argc - 4;
	if (rounds < 1 || rounds > MAX_ROUNDS || pairs < 1) {
		fprintf(stderr, "fork-bench: ROUNDS 1-%d, PAIRS > 0\n", MAX_ROUNDS);
		return 2;
	}
	for (l = 0; l < nlive; l++) {
		live[l] = atoi(argv[4 + l]);
		if (live[l] < 1) {
			fprintf(stderr, "fork-bench: LIVE > 0\n");
			return 2;
		}
	}

	for (r = 0; r < rounds; r++) {
		t = now_ns();
		for (i = 0; i < pairs; i++) {
			pid = fork();
			if (pid < 0)
				die("fork");
			if (!pid)
				_exit(0);
			if (waitpid(pid, NULL, 0) != pid)
				die("waitpid");
		}
		pair_ns[r] = (now_ns() - t) / pairs;

		calib_ns[r] = calibrate(CALIB_TRIPS);

		for (l = 0; l < nlive; l++) {
			int fd[2];
			char c;

			if (pipe(fd))
				die("pipe");
			t = now_ns();
			for (i = 0; i < live[l]; i++) {
				pid = fork();
				if (pid < 0)
					die("fork");
				if (!pid) {
					close(fd[1]);
					_exit(read(fd[0], &c, 1) != 0);
				}
			}
			t = now_ns() - t;
			if (!r)
				bytes[l] = task_struct_bytes();
			close(fd[0]);
			close(fd[1]);
			reap = now_ns();
			for (i = 0; i < live[l]; i++)
				if (wait(NULL) < 0)
					die("wait");
			live_ns[l][r] = (t + now_ns() - reap) / live[l];
		}
	}

	printf("# bench: %s.fork_exit_ns %lld\n", prefix, median(pair_ns, rounds));
	printf("# bench: %s.calib_ns %lld\n", prefix, median(calib_ns, rounds));
	for (l = 0; l < nlive; l++) {
		printf("# bench: %s.fork_live_%d_ns %lld\n", prefix, live[l],
		       median(live_ns[l], rounds));
		printf("# bench: %s.bytes_per_task_%d %lld\n", prefix, live[l], bytes[l]);
	}
	return 0;
}
