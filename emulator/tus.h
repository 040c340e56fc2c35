/*
 * TUS 1.0.0 as Stream speaks it: the header and Upload-Metadata parsers and
 * the chunk rules, pure functions exposed for the unit tests and the fuzzer.
 */
#ifndef EDGEMU_TUS_H
#define EDGEMU_TUS_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#define TUS_VERSION		"1.0.0"
#define TUS_EXTENSIONS		"creation,expiration,termination"
#define TUS_MAX_SIZE		((uint64_t)30 << 30)	/* Stream: 30 GB */
#define TUS_META_MAX_PAIRS	64
#define TUS_DATE_LEN		40

/* Upload expiries: direct creator uploads, and any other tus upload. */
#define TUS_EXPIRY_DIRECT	(30 * 60)
#define TUS_EXPIRY_DEFAULT	(24 * 3600)

struct tus_meta_pair {
	char	*key;
	char	*value;		/* decoded and NUL-terminated; "" for a flag */
	size_t	 len;
	int	 flag;		/* the key came without a value */
};

struct tus_meta {
	struct tus_meta_pair	pairs[TUS_META_MAX_PAIRS];
	size_t			npairs;
};

/* What Upload-Metadata asks of the new video. */
struct tus_fields {
	cJSON	*meta;			/* name, and every key not known */
	int	 require_signed;
	cJSON	*allowed_origins;	/* NULL when not given */
	double	 thumb_pct;		/* -1 when not given */
	char	 watermark[33];		/* "" when not given */
	char	*scheduled_deletion;	/* RFC 3339, or NULL */
	long	 max_duration;		/* -1 when not given */
	int64_t	 expiry;		/* microseconds; 0 when not given */
};

int	 tus_meta_parse(const char *, struct tus_meta *, char **);
void	 tus_meta_free(struct tus_meta *);
const struct tus_meta_pair *tus_meta_get(const struct tus_meta *,
	     const char *);
int	 tus_meta_fields(const struct tus_meta *, int64_t,
	     struct tus_fields *, char **);
void	 tus_fields_free(struct tus_fields *);

int	 tus_parse_size(const char *, uint64_t *);
int	 tus_version_ok(const char *);
int	 tus_base64_decode(const char *, size_t, char **, size_t *);

enum tus_chunk {
	TUS_CHUNK_OK,
	TUS_CHUNK_PAST_END,	/* 413 */
	TUS_CHUNK_TOO_BIG,	/* 413 */
	TUS_CHUNK_TOO_SMALL,	/* 400 */
	TUS_CHUNK_UNALIGNED	/* 400 */
};
enum tus_chunk tus_chunk_check(uint64_t, uint64_t, uint64_t, char **);
unsigned int tus_chunk_status(enum tus_chunk);

void	 tus_http_date(int64_t, char[TUS_DATE_LEN]);

struct req;
struct reply;
struct stream_upload;

/*
 * Shared with direct.c's one-time URLs. The upload a request names, of one
 * of the kinds wanted (TUS_KIND bits), else the reply says why; one request
 * at a time per upload; an expired upload (the reply says so); bytes made
 * durable recorded (the reply says why not: 404 gone, 500); where this
 * server is without the API prefix (caller frees); write all of a buffer.
 */
#define TUS_KIND(k)	(1 << (k))
int	 tus_find(struct req *, struct reply *, int, struct stream_upload *);
int	 tus_lock(const char *);
void	 tus_unlock(const char *);
int	 tus_expired(const struct stream_upload *, struct reply *);
int	 tus_record(struct req *, struct reply *, const struct stream_upload *,
	     int64_t, int);
char	*tus_root_url(struct req *);
int	 tus_write_all(int, const char *, size_t, size_t *);

#endif
