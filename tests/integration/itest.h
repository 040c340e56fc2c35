/*
 * Integration test support: start edgemu on a free port with its own data
 * directory, talk to it over HTTP with libcurl, stop or kill it.
 */
#ifndef ITEST_H
#define ITEST_H

#include <sys/types.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>

struct edgemu {
	pid_t	 pid;
	char	*dir;		/* data directory */
	char	*url;		/* EDGEMU_URL */
	char	*token;
	char	*account;	/* with demo data */
	char	*zone;
	int	 demo;
	int	 own_dir;
	char	*extra[16];	/* more arguments, kept for restarts */
	size_t	 nextra;
};

struct http_resp {
	long	 status;
	char	*body;
	size_t	 len;
	char	*headers;	/* raw header block, lower-cased names */
	cJSON	*json;		/* NULL when the body is no JSON */
};

/* Start edgemu; dir NULL makes a fresh temporary one. Extra args end in NULL. */
void	 edgemu_start(struct edgemu *, const char *dir, int demo, ...);
/* Start it again on the same data directory (after a stop or a kill). */
void	 edgemu_restart(struct edgemu *);
void	 edgemu_kill(struct edgemu *, int sig);
/* Stop it and remove its data directory. */
void	 edgemu_finish(struct edgemu *);

/*
 * One request. path is below EDGEMU_URL ("/zones/..."); auth NULL sends the
 * right token, "" none, anything else that token.
 */
void	 http_request(struct edgemu *, const char *method, const char *path,
	     const char *content_type, const void *body, size_t len,
	     const char *auth, struct http_resp *);
void	 http_resp_free(struct http_resp *);
const char *http_header(const struct http_resp *, const char *);

/* JSON conveniences: body may be NULL. */
void	 http_json(struct edgemu *, const char *method, const char *path,
	     const char *body, struct http_resp *);
/* Asserts a 2xx success envelope; returns a copy of result (caller frees). */
cJSON	*api_ok(struct edgemu *, const char *method, const char *path,
	     const char *body);
/* Asserts the status and a failure envelope; returns errors[0].message. */
char	*api_fail(struct edgemu *, const char *method, const char *path,
	     const char *body, long status);
/* Asserts that a response is a well-formed envelope. */
void	 assert_envelope(const struct http_resp *);

char	*itest_printf(const char *, ...) __attribute__((format(printf, 1, 2)));

#endif
