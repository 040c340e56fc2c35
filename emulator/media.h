/*
 * Recognising video containers and reading their duration: the box walk of
 * MP4/MOV (mvhd, tkhd, mehd) and the magic numbers of the other containers
 * Stream accepts. Also writes the small MP4 files that stand in for demo
 * videos and test uploads.
 */
#ifndef EDGEMU_MEDIA_H
#define EDGEMU_MEDIA_H

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>

struct buf;

enum media_result {
	MEDIA_OK,		/* a container we recognise */
	MEDIA_NOT_VIDEO,	/* no container at all */
	MEDIA_MALFORMED		/* MP4/MOV boxes, but broken or cut short */
};

enum media_kind {
	MEDIA_KIND_NONE,
	MEDIA_KIND_ISOBMFF,	/* MP4, MOV, M4V, 3GP: duration read */
	MEDIA_KIND_OTHER	/* WebM, AVI, FLV, MPEG-TS/PS, ASF: by magic */
};

struct media_info {
	enum media_kind	 kind;
	double		 duration;	/* seconds; -1 when unknown */
	int		 width;		/* pixels; -1 when unknown */
	int		 height;
	uint32_t	 timescale;	/* mvhd, 0 when none */
	uint64_t	 units;		/* mvhd duration in timescale units */
};

/* The largest moov box read into memory. */
#define MEDIA_MOOV_MAX	(16 * 1024 * 1024)

/* Read up to len bytes at off; the number read (0 at the end) or -1. */
typedef ssize_t	(*media_read_cb)(void *, void *, size_t, uint64_t);

enum media_result media_probe(media_read_cb, void *, uint64_t,
		     struct media_info *, char **);
enum media_result media_probe_buf(const void *, size_t, struct media_info *,
		     char **);
enum media_result media_probe_file(const char *, struct media_info *,
		     char **);

/*
 * A small MP4 that media_probe reads back: ftyp, moov (mvhd, version 1 when
 * the duration needs it, and one video trak/tkhd), mdat of mdat_len bytes.
 */
void		 media_mp4(struct buf *, uint32_t, uint64_t, int, int, size_t);
int		 media_mp4_write(const char *, double, int, int, size_t,
		     char **);

#endif
