/*
 * Recognising video containers and reading their duration. Uploads can be
 * gigabytes and hostile, so MP4/MOV files are walked box by box through a
 * read callback: only box headers and the moov box (capped) are read, every
 * size is checked against its container before it is trusted.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "media.h"
#include "xmalloc.h"

struct media_src {
	media_read_cb	 read;
	void		*arg;
	uint64_t	 size;
};

struct media_box {
	char		 type[5];
	uint64_t	 size;		/* header included */
	unsigned int	 hdr;		/* 8, or 16 with a 64-bit size */
	int		 truncated;	/* runs past its container */
};

/* Top-level box types of the ISO base media file format and QuickTime. */
static const char *const media_top_types[] = {
	"ftyp", "moov", "mdat", "free", "skip", "wide", "pnot", "pdin",
	"uuid", "moof", "mfra", "meta", "styp", "sidx", "junk", NULL
};

static enum media_result
media_fail(char **cause, enum media_result r, const char *fmt, ...)
    printflike(3, 4);

static enum media_result
media_fail(char **cause, enum media_result r, const char *fmt, ...)
{
	va_list	ap;

	if (cause != NULL) {
		va_start(ap, fmt);
		xvasprintf(cause, fmt, ap);
		va_end(ap);
	}
	return (r);
}

static uint32_t
media_be32(const unsigned char *p)
{
	return ((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | (uint32_t)p[3]);
}

static uint64_t
media_be64(const unsigned char *p)
{
	return ((uint64_t)media_be32(p) << 32 | media_be32(p + 4));
}

static int
media_read_full(const struct media_src *src, void *p, size_t len,
    uint64_t off)
{
	unsigned char	*u = p;
	ssize_t		 r;

	while (len > 0) {
		r = src->read(src->arg, u, len, off);
		if (r <= 0)
			return (-1);
		u += r;
		off += (uint64_t)r;
		len -= (size_t)r;
	}
	return (0);
}

/*
 * A box header from the avail bytes at p, room being what is left of the
 * container from the box's start. Size 0 means "to the end of the
 * container"; size 1 means a 64-bit size follows the type.
 */
static int
media_box_header(const unsigned char *p, size_t avail, uint64_t room,
    struct media_box *b)
{
	uint32_t	size32;

	memset(b, 0, sizeof *b);
	if (avail < 8)
		return (-1);
	size32 = media_be32(p);
	memcpy(b->type, p + 4, 4);
	b->hdr = 8;
	if (size32 == 1) {
		if (avail < 16)
			return (-1);
		b->size = media_be64(p + 8);
		b->hdr = 16;
	} else if (size32 == 0)
		b->size = room;
	else
		b->size = size32;
	if (b->size < b->hdr)
		return (-1);
	b->truncated = b->size > room;
	return (0);
}

static int
media_printable_type(const char *t)
{
	size_t	i;

	for (i = 0; i < 4; i++) {
		if ((unsigned char)t[i] < 0x20 || (unsigned char)t[i] > 0x7e)
			return (0);
	}
	return (1);
}

static int
media_known_top(const char *t)
{
	size_t	i;

	for (i = 0; media_top_types[i] != NULL; i++) {
		if (memcmp(t, media_top_types[i], 4) == 0)
			return (1);
	}
	return (0);
}

/* ---- inside moov --------------------------------------------------------- */

static enum media_result
media_mvhd(const unsigned char *p, size_t len, struct media_info *mi,
    char **cause)
{
	uint64_t	units;

	if (len < 4)
		return (media_fail(cause, MEDIA_MALFORMED,
		    "the mvhd box is cut short"));
	if (p[0] == 0) {
		if (len < 20)
			return (media_fail(cause, MEDIA_MALFORMED,
			    "the mvhd box is cut short"));
		mi->timescale = media_be32(p + 12);
		units = media_be32(p + 16);
		if (units == UINT32_MAX)
			units = 0;
	} else if (p[0] == 1) {
		if (len < 32)
			return (media_fail(cause, MEDIA_MALFORMED,
			    "the mvhd box is cut short"));
		mi->timescale = media_be32(p + 20);
		units = media_be64(p + 24);
		if (units == UINT64_MAX)
			units = 0;
	} else
		return (media_fail(cause, MEDIA_MALFORMED,
		    "mvhd version %u is unknown", p[0]));
	if (mi->timescale == 0)
		return (media_fail(cause, MEDIA_MALFORMED,
		    "the mvhd timescale is 0"));
	mi->units = units;
	return (MEDIA_OK);
}

/* The first track with a picture gives the size (16.16 fixed point). */
static void
media_tkhd(const unsigned char *p, size_t len, struct media_info *mi)
{
	size_t		at;
	uint32_t	w, h;

	if (mi->width > 0 || len < 4)
		return;
	at = p[0] == 1 ? 88 : 76;
	if (p[0] > 1 || len < at + 8)
		return;
	w = media_be32(p + at) >> 16;
	h = media_be32(p + at + 4) >> 16;
	if (w > 0 && h > 0 && w <= 65535 && h <= 65535) {
		mi->width = (int)w;
		mi->height = (int)h;
	}
}

/* Fragmented files: the whole duration is in mvex/mehd. */
static void
media_mehd(const unsigned char *p, size_t len, uint64_t *units)
{
	if (len >= 8 && p[0] == 0)
		*units = media_be32(p + 4);
	else if (len >= 12 && p[0] == 1)
		*units = media_be64(p + 4);
}

/*
 * Walk the children of a container held in memory, calling back for each
 * with its payload; a child running past the container is malformed.
 */
typedef enum media_result (*media_child_cb)(const struct media_box *,
		     const unsigned char *, size_t, struct media_info *,
		     uint64_t *, char **);

static enum media_result
media_children(const unsigned char *p, size_t len, media_child_cb cb,
    struct media_info *mi, uint64_t *frag, char **cause)
{
	struct media_box	b;
	size_t			off = 0;
	enum media_result	r;

	while (len - off >= 8) {
		if (media_box_header(p + off, len - off, len - off, &b) != 0)
			return (media_fail(cause, MEDIA_MALFORMED, "a box "
			    "inside moov has a size smaller than its header"));
		if (b.truncated)
			return (media_fail(cause, MEDIA_MALFORMED, "the %s box "
			    "runs past the end of its container",
			    media_printable_type(b.type) ? b.type : "????"));
		r = cb(&b, p + off + b.hdr, (size_t)b.size - b.hdr, mi, frag,
		    cause);
		if (r != MEDIA_OK)
			return (r);
		off += (size_t)b.size;
	}
	return (MEDIA_OK);
}

static enum media_result
media_trak_child(const struct media_box *b, const unsigned char *p,
    size_t len, struct media_info *mi, uint64_t *frag, char **cause)
{
	(void)frag;
	(void)cause;
	if (memcmp(b->type, "tkhd", 4) == 0)
		media_tkhd(p, len, mi);
	return (MEDIA_OK);
}

static enum media_result
media_mvex_child(const struct media_box *b, const unsigned char *p,
    size_t len, struct media_info *mi, uint64_t *frag, char **cause)
{
	(void)mi;
	(void)cause;
	if (memcmp(b->type, "mehd", 4) == 0)
		media_mehd(p, len, frag);
	return (MEDIA_OK);
}

static enum media_result
media_moov_child(const struct media_box *b, const unsigned char *p,
    size_t len, struct media_info *mi, uint64_t *frag, char **cause)
{
	if (memcmp(b->type, "mvhd", 4) == 0) {
		if (mi->timescale != 0)
			return (MEDIA_OK);	/* the first one counts */
		return (media_mvhd(p, len, mi, cause));
	}
	if (memcmp(b->type, "trak", 4) == 0)
		return (media_children(p, len, media_trak_child, mi, frag,
		    cause));
	if (memcmp(b->type, "mvex", 4) == 0)
		return (media_children(p, len, media_mvex_child, mi, frag,
		    cause));
	return (MEDIA_OK);
}

static enum media_result
media_moov(const unsigned char *p, size_t len, struct media_info *mi,
    char **cause)
{
	enum media_result	r;
	uint64_t		frag = 0;

	r = media_children(p, len, media_moov_child, mi, &frag, cause);
	if (r != MEDIA_OK)
		return (r);
	if (mi->timescale == 0)
		return (media_fail(cause, MEDIA_MALFORMED,
		    "the moov box has no mvhd"));
	if (mi->units == 0)
		mi->units = frag;
	mi->duration = mi->units == 0 ? -1 :
	    (double)mi->units / (double)mi->timescale;
	return (MEDIA_OK);
}

/* ---- the file ------------------------------------------------------------ */

/* Containers recognised by their first bytes only. */
static int
media_magic(const unsigned char *p, size_t n)
{
	static const unsigned char asf[] = {
		0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11
	};

	if (n >= 4 && memcmp(p, "\x1a\x45\xdf\xa3", 4) == 0)
		return (1);	/* EBML: Matroska, WebM */
	if (n >= 12 && memcmp(p, "RIFF", 4) == 0 &&
	    memcmp(p + 8, "AVI ", 4) == 0)
		return (1);
	if (n >= 4 && memcmp(p, "FLV\x01", 4) == 0)
		return (1);
	if (n >= sizeof asf && memcmp(p, asf, sizeof asf) == 0)
		return (1);	/* ASF: WMV */
	if (n >= 4 && memcmp(p, "\x00\x00\x01\xba", 4) == 0)
		return (1);	/* MPEG program stream */
	if (n >= 377 && p[0] == 0x47 && p[188] == 0x47 && p[376] == 0x47)
		return (1);	/* MPEG transport stream */
	if (n >= 389 && p[4] == 0x47 && p[196] == 0x47 && p[388] == 0x47)
		return (1);	/* M2TS: 192-byte packets */
	return (0);
}

static enum media_result
media_read_moov(const struct media_src *src, uint64_t off,
    const struct media_box *b, struct media_info *mi, char **cause)
{
	unsigned char		*p;
	size_t			 len;
	enum media_result	 r;

	if (b->size - b->hdr > MEDIA_MOOV_MAX)
		return (media_fail(cause, MEDIA_MALFORMED, "the moov box of "
		    "%llu bytes is over the limit of %d bytes",
		    (unsigned long long)b->size, MEDIA_MOOV_MAX));
	len = (size_t)(b->size - b->hdr);
	p = xmalloc(len + 1);
	if (media_read_full(src, p, len, off + b->hdr) != 0) {
		free(p);
		return (media_fail(cause, MEDIA_MALFORMED,
		    "the moov box could not be read"));
	}
	r = media_moov(p, len, mi, cause);
	free(p);
	return (r);
}

/*
 * Walk the top-level boxes. The first must be a known type, so random bytes
 * are not taken for a file; a cut-short box other than moov ends the walk (a
 * partial mdat still has its moov in front).
 */
static enum media_result
media_walk(const struct media_src *src, struct media_info *mi, char **cause)
{
	unsigned char		 h[16];
	struct media_box	 b;
	uint64_t		 off = 0;
	size_t			 n;
	int			 moov = 0;
	enum media_result	 r;

	while (src->size - off >= 8) {
		n = (size_t)MINIMUM((uint64_t)sizeof h, src->size - off);
		if (media_read_full(src, h, n, off) != 0)
			return (media_fail(cause, MEDIA_MALFORMED,
			    "the file could not be read"));
		if (media_box_header(h, n, src->size - off, &b) != 0 ||
		    !media_printable_type(b.type)) {
			if (off == 0)
				goto not_video;
			if (moov)
				break;
			return (media_fail(cause, MEDIA_MALFORMED, "a box at "
			    "offset %llu is not valid",
			    (unsigned long long)off));
		}
		if (off == 0 && !media_known_top(b.type))
			goto not_video;
		if (memcmp(b.type, "moov", 4) == 0 && !moov) {
			if (b.truncated)
				return (media_fail(cause, MEDIA_MALFORMED,
				    "the moov box is cut short"));
			if ((r = media_read_moov(src, off, &b, mi,
			    cause)) != MEDIA_OK)
				return (r);
			moov = 1;
		}
		if (b.truncated)
			break;
		off += b.size;
	}
	if (off == 0 && !moov)
		goto not_video;
	if (!moov)
		return (media_fail(cause, MEDIA_MALFORMED, "the file has MP4 "
		    "boxes but no moov box"));
	mi->kind = MEDIA_KIND_ISOBMFF;
	return (MEDIA_OK);

not_video:
	return (media_fail(cause, MEDIA_NOT_VIDEO,
	    "The file was not recognized as a valid video file."));
}

enum media_result
media_probe(media_read_cb cb, void *arg, uint64_t size,
    struct media_info *mi, char **cause)
{
	struct media_src	src = { cb, arg, size };
	unsigned char		head[400];
	size_t			n;

	memset(mi, 0, sizeof *mi);
	mi->kind = MEDIA_KIND_NONE;
	mi->duration = -1;
	mi->width = mi->height = -1;
	n = (size_t)MINIMUM((uint64_t)sizeof head, size);
	if (n > 0 && media_read_full(&src, head, n, 0) != 0)
		return (media_fail(cause, MEDIA_MALFORMED,
		    "the file could not be read"));
	if (media_magic(head, n)) {
		mi->kind = MEDIA_KIND_OTHER;
		return (MEDIA_OK);
	}
	return (media_walk(&src, mi, cause));
}

struct media_mem {
	const unsigned char	*p;
	size_t			 len;
};

static ssize_t
media_mem_read(void *arg, void *out, size_t len, uint64_t off)
{
	struct media_mem	*m = arg;

	if (off >= m->len)
		return (0);
	len = (size_t)MINIMUM((uint64_t)len, m->len - off);
	memcpy(out, m->p + off, len);
	return ((ssize_t)len);
}

enum media_result
media_probe_buf(const void *p, size_t len, struct media_info *mi,
    char **cause)
{
	struct media_mem	m = { p, len };

	return (media_probe(media_mem_read, &m, len, mi, cause));
}

static ssize_t
media_fd_read(void *arg, void *out, size_t len, uint64_t off)
{
	int	fd = *(int *)arg;
	ssize_t	r;

	do
		r = pread(fd, out, len, (off_t)off);
	while (r == -1 && errno == EINTR);
	return (r);
}

enum media_result
media_probe_file(const char *path, struct media_info *mi, char **cause)
{
	struct stat		st;
	enum media_result	r;
	int			fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1 ||
	    fstat(fd, &st) != 0) {
		if (cause != NULL)
			*cause = xprintf("%s: %s", path, strerror(errno));
		if (fd != -1)
			close(fd);
		memset(mi, 0, sizeof *mi);
		mi->duration = -1;
		mi->width = mi->height = -1;
		return (MEDIA_MALFORMED);
	}
	r = media_probe(media_fd_read, &fd, (uint64_t)st.st_size, mi, cause);
	close(fd);
	return (r);
}

/* ---- writing ------------------------------------------------------------- */

static void
media_put32(struct buf *b, uint32_t v)
{
	unsigned char	p[4] = { v >> 24, v >> 16, v >> 8, v };

	buf_add(b, p, 4);
}

static void
media_put64(struct buf *b, uint64_t v)
{
	media_put32(b, (uint32_t)(v >> 32));
	media_put32(b, (uint32_t)v);
}

static void
media_zero(struct buf *b, size_t n)
{
	static const char	z[64];

	while (n > 0) {
		buf_add(b, z, MINIMUM(n, sizeof z));
		n -= MINIMUM(n, sizeof z);
	}
}

/* Begin a box; media_box_end patches the size in once it is known. */
static size_t
media_box_begin(struct buf *b, const char *type)
{
	size_t	at = b->len;

	media_put32(b, 0);
	buf_add(b, type, 4);
	return (at);
}

static void
media_box_end(struct buf *b, size_t at)
{
	uint32_t	n = (uint32_t)(b->len - at);
	unsigned char	p[4] = { n >> 24, n >> 16, n >> 8, n };

	memcpy(b->data + at, p, 4);
}

static void
media_matrix(struct buf *b)
{
	media_put32(b, 0x00010000);
	media_zero(b, 12);
	media_put32(b, 0x00010000);
	media_zero(b, 12);
	media_put32(b, 0x40000000);
}

static void
media_write_mvhd(struct buf *b, uint32_t timescale, uint64_t units, int v1)
{
	size_t	at = media_box_begin(b, "mvhd");

	media_put32(b, v1 ? 0x01000000 : 0);
	if (v1) {
		media_put64(b, 0);		/* creation time */
		media_put64(b, 0);		/* modification time */
		media_put32(b, timescale);
		media_put64(b, units);
	} else {
		media_put32(b, 0);
		media_put32(b, 0);
		media_put32(b, timescale);
		media_put32(b, (uint32_t)units);
	}
	media_put32(b, 0x00010000);		/* rate 1.0 */
	buf_add(b, "\x01\x00", 2);		/* volume 1.0 */
	media_zero(b, 10);
	media_matrix(b);
	media_zero(b, 24);			/* pre_defined */
	media_put32(b, 2);			/* next track id */
	media_box_end(b, at);
}

static void
media_write_tkhd(struct buf *b, uint64_t units, int v1, int w, int h)
{
	size_t	at = media_box_begin(b, "tkhd");

	media_put32(b, (v1 ? 0x01000000 : 0) | 0x3);	/* enabled, in movie */
	if (v1) {
		media_put64(b, 0);
		media_put64(b, 0);
		media_put32(b, 1);		/* track id */
		media_put32(b, 0);
		media_put64(b, units);
	} else {
		media_put32(b, 0);
		media_put32(b, 0);
		media_put32(b, 1);
		media_put32(b, 0);
		media_put32(b, (uint32_t)units);
	}
	media_zero(b, 8);
	media_zero(b, 8);			/* layer, group, volume */
	media_matrix(b);
	media_put32(b, (uint32_t)w << 16);
	media_put32(b, (uint32_t)h << 16);
	media_box_end(b, at);
}

void
media_mp4(struct buf *b, uint32_t timescale, uint64_t units, int width,
    int height, size_t mdat_len)
{
	size_t	moov, trak;
	int	v1 = units > UINT32_MAX - 1;

	media_put32(b, 24);
	buf_add(b, "ftypisom", 8);
	media_put32(b, 0x200);
	buf_add(b, "isommp41", 8);

	moov = media_box_begin(b, "moov");
	media_write_mvhd(b, timescale, units, v1);
	trak = media_box_begin(b, "trak");
	media_write_tkhd(b, units, v1, width, height);
	media_box_end(b, trak);
	media_box_end(b, moov);

	media_put32(b, (uint32_t)(8 + mdat_len));
	buf_add(b, "mdat", 4);
}

/* Written whole and synced: the bytes stand in for an uploaded video. */
int
media_mp4_write(const char *path, double seconds, int width, int height,
    size_t mdat_len, char **cause)
{
	struct buf	 b = BUF_INITIALIZER;
	unsigned char	 fill[4096];
	size_t		 i, n;
	int		 fd;

	media_mp4(&b, 1000, (uint64_t)llround(seconds * 1000.0), width, height,
	    mdat_len);
	/* Not all zeros, so a download is not mistaken for a sparse file. */
	for (i = 0; i < sizeof fill; i++)
		fill[i] = (unsigned char)(i * 131 + 7);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd == -1)
		goto fail;
	if (write(fd, b.data, b.len) != (ssize_t)b.len)
		goto fail;
	for (i = 0; i < mdat_len; i += n) {
		n = MINIMUM(mdat_len - i, sizeof fill);
		if (write(fd, fill, n) != (ssize_t)n)
			goto fail;
	}
	if (fsync(fd) != 0)
		goto fail;
	close(fd);
	buf_free(&b);
	return (0);

fail:
	*cause = xprintf("%s: %s", path, strerror(errno));
	if (fd != -1)
		close(fd);
	buf_free(&b);
	return (-1);
}
