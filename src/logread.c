/*
 * A log file's bytes (logread.h): read(2) rather than gzread, whose reads
 * wait until its buffer is full and cannot be interrupted, so a FIFO that
 * never closes would keep a cancelled reader forever; inflate does the
 * gzip part.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "common.h"
#include "log.h"
#include "logread.h"
#include "xmalloc.h"

#define LOGREAD_IN_SIZE		(256 * 1024)

enum logread_kind {
	LOGREAD_UNKNOWN,	/* the first bytes are not read yet */
	LOGREAD_PLAIN,
	LOGREAD_GZIP
};

struct logread {
	int			 fd;
	int			 wait;		/* not a regular file: poll */
	logread_cancelled_cb	 cancelled;
	void			*arg;
	uint64_t		 total;		/* the file's size; 0 unknown */
	uint64_t		 done;		/* bytes read from the file */
	int			 eof;		/* the file's end was read */
	enum logread_kind	 kind;
	z_stream		 z;		/* next_in/avail_in: unused */
	int			 zinit;
	int			 zend;		/* a gzip member just ended */
	uint64_t		 members;	/* gzip members read whole */
	unsigned char		*in;		/* LOGREAD_IN_SIZE */
};

struct logread *
logread_open(const char *path, logread_cancelled_cb cancelled, void *arg,
    char **cause)
{
	struct logread	*r;
	struct stat	 st;
	int		 fd, flags;

	/*
	 * O_NONBLOCK: a FIFO's open would wait for a writer, uncancelled;
	 * the reads wait in poll instead, so the flag is cleared after.
	 */
	if (strcmp(path, "-") == 0)
		fd = dup(STDIN_FILENO);
	else if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) != -1 &&
	    (flags = fcntl(fd, F_GETFL)) != -1)
		(void)fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
	if (fd == -1 || fstat(fd, &st) == -1) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		if (fd != -1)
			close(fd);
		return (NULL);
	}
	if (S_ISDIR(st.st_mode)) {
		xasprintf(cause, "%s: is a directory", path);
		close(fd);
		return (NULL);
	}
	r = xcalloc(1, sizeof *r);
	r->fd = fd;
	r->wait = !S_ISREG(st.st_mode);
	if (S_ISREG(st.st_mode))
		r->total = (uint64_t)st.st_size;
	r->cancelled = cancelled;
	r->arg = arg;
	r->in = xmalloc(LOGREAD_IN_SIZE);
	r->z.next_in = r->in;
	return (r);
}

void
logread_close(struct logread *r)
{
	if (r == NULL)
		return;
	if (r->zinit)
		inflateEnd(&r->z);
	close(r->fd);
	free(r->in);
	free(r);
}

void
logread_progress(const struct logread *r, uint64_t *done, uint64_t *total)
{
	*done = r->done;
	*total = r->total;
}

/*
 * Up to n bytes of the file into dst: how many, 0 at its end (r->eof), -1
 * on an error or a cancel. From a pipe, the wait is in poll, a cancel
 * asked every LOGREAD_WAIT_MS.
 */
static ssize_t
logread_raw(struct logread *r, void *dst, size_t n, char **cause)
{
	struct pollfd	pfd;
	ssize_t		got;

	for (;;) {
		if (r->wait) {
			if (r->cancelled != NULL && r->cancelled(r->arg)) {
				*cause = xstrdup("cancelled");
				return (-1);
			}
			pfd.fd = r->fd;
			pfd.events = POLLIN;
			pfd.revents = 0;
			got = poll(&pfd, 1, r->cancelled != NULL ?
			    LOGREAD_WAIT_MS : -1);
			if (got == 0 || (got == -1 && errno == EINTR))
				continue;
			/* Another error is read(2)'s to say. */
		}
		if ((got = read(r->fd, dst, n)) >= 0)
			break;
		/* EAGAIN: standard input left non-blocking by someone. */
		if (errno != EINTR && errno != EAGAIN) {
			*cause = xstrdup(strerror(errno));
			return (-1);
		}
	}
	r->done += (uint64_t)got;
	if (got == 0)
		r->eof = 1;
	return (got);
}

/* More of the file after the bytes inflate has not used: 0 or -1. */
static int
logread_more(struct logread *r, char **cause)
{
	ssize_t	got;

	if (r->z.avail_in > 0 && r->z.next_in != r->in)
		memmove(r->in, r->z.next_in, r->z.avail_in);
	r->z.next_in = r->in;
	if ((got = logread_raw(r, r->in + r->z.avail_in,
	    LOGREAD_IN_SIZE - r->z.avail_in, cause)) == -1)
		return (-1);
	r->z.avail_in += (uInt)got;
	return (0);
}

/* Whether gzip's magic opens the unused bytes (two of them at least). */
static int
logread_magic(struct logread *r, char **cause, int *gzip)
{
	while (r->z.avail_in < 2 && !r->eof)
		if (logread_more(r, cause) != 0)
			return (-1);
	*gzip = r->z.avail_in >= 2 && r->z.next_in[0] == 0x1f &&
	    r->z.next_in[1] == 0x8b;
	return (0);
}

/* The first bytes say what the file is. */
static int
logread_sniff(struct logread *r, char **cause)
{
	int	gzip;

	if (logread_magic(r, cause, &gzip) != 0)
		return (-1);
	r->kind = gzip ? LOGREAD_GZIP : LOGREAD_PLAIN;
	if (!gzip)
		return (0);
	/* 16: gzip's wrapper, checked. */
	if (inflateInit2(&r->z, 15 + 16) != Z_OK)
		fatalx("inflateInit2: out of memory");
	r->zinit = 1;
	return (0);
}

static ssize_t
logread_plain(struct logread *r, void *dst, size_t n, char **cause)
{
	size_t	k;

	if (r->z.avail_in > 0) {
		k = MINIMUM(n, (size_t)r->z.avail_in);
		memcpy(dst, r->z.next_in, k);
		r->z.next_in += k;
		r->z.avail_in -= (uInt)k;
		return ((ssize_t)k);
	}
	if (r->eof)
		return (0);
	return (logread_raw(r, dst, n, cause));
}

/*
 * After a member, another one or the end (0 or 1). Other bytes there are
 * damage, not a log's end: gzip -t calls them trailing garbage, and the
 * lines they held would be lost without a word.
 */
static int
logread_next_member(struct logread *r, char **cause)
{
	int	gzip;

	if (logread_magic(r, cause, &gzip) != 0)
		return (-1);
	if (!gzip && r->z.avail_in == 0 && r->eof)
		return (1);
	if (!gzip) {
		xasprintf(cause, "damaged gzip data: what follows gzip member "
		    "%llu is not gzip (trailing garbage)",
		    (unsigned long long)r->members);
		return (-1);
	}
	if (inflateReset(&r->z) != Z_OK)
		fatalx("inflateReset");
	r->zend = 0;
	return (0);
}

static ssize_t
logread_gunzip(struct logread *r, void *dst, size_t n, char **cause)
{
	int	zr, end;

	r->z.next_out = dst;
	r->z.avail_out = (uInt)MINIMUM(n, (size_t)UINT_MAX);
	n = r->z.avail_out;
	while (r->z.avail_out == n) {
		if (r->zend) {
			if ((end = logread_next_member(r, cause)) != 0)
				return (end == 1 ? 0 : -1);
		}
		if (r->z.avail_in == 0 && !r->eof && logread_more(r, cause) != 0)
			return (-1);
		zr = inflate(&r->z, Z_NO_FLUSH);
		if (zr == Z_STREAM_END) {
			r->zend = 1;
			r->members++;
		} else if (zr == Z_BUF_ERROR) {
			/* No progress: only more of the file would help. */
			if (r->eof && r->z.avail_out == n) {
				*cause = xstrdup("the gzip data is cut short");
				return (-1);
			}
		} else if (zr != Z_OK) {
			xasprintf(cause, "damaged gzip data (%s)",
			    r->z.msg != NULL ? r->z.msg : "inflate failed");
			return (-1);
		}
	}
	return ((ssize_t)(n - r->z.avail_out));
}

ssize_t
logread_read(struct logread *r, void *dst, size_t n, char **cause)
{
	if (n == 0)
		return (0);
	if (r->kind == LOGREAD_UNKNOWN && logread_sniff(r, cause) != 0)
		return (-1);
	if (r->kind == LOGREAD_PLAIN)
		return (logread_plain(r, dst, n, cause));
	return (logread_gunzip(r, dst, n, cause));
}
