/*
 * fdio.c — whole-buffer reads and writes on a file descriptor. write(2) and read(2) may move
 * fewer bytes than asked and may be interrupted by a signal (EINTR); every caller that means
 * "all n bytes" loops the same way, so the loop lives here once.
 */
#include "base.h"

#include <errno.h>
#include <unistd.h>

int fdio_write_all(int fd, const void *p, size_t n, long long at)
{
	const char *s = p;
	for (size_t done = 0; done < n;) {
		ssize_t r = at < 0 ? write(fd, s + done, n - done)
				   : pwrite(fd, s + done, n - done, (off_t)(at + (long long)done));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? errno : EIO;
		done += (size_t)r;
	}
	return 0;
}

size_t fdio_read_all(int fd, void *p, size_t n, long long at)
{
	char *s = p;
	size_t done = 0;
	while (done < n) {
		ssize_t r = at < 0 ? read(fd, s + done, n - done)
				   : pread(fd, s + done, n - done, (off_t)(at + (long long)done));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		done += (size_t)r;
	}
	return done;
}
