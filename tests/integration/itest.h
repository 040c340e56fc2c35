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
#include <curl/curl.h>

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

/* cmocka fixtures: *state is a started edgemu, without or with demo data. */
int	 edgemu_fixture_plain(void **);
int	 edgemu_fixture_demo(void **);
/* The same with videos processed in 1 s. */
int	 edgemu_fixture_fast_plain(void **);
int	 edgemu_fixture_fast_demo(void **);
int	 edgemu_fixture_stop(void **);

/*
 * One request. path is below EDGEMU_URL ("/zones/..."); auth NULL sends the
 * right token, "" none, anything else that token.
 */
void	 http_request(struct edgemu *, const char *method, const char *path,
	     const char *content_type, const void *body, size_t len,
	     const char *auth, struct http_resp *);
void	 http_resp_free(struct http_resp *);
const char *http_header(const struct http_resp *, const char *);

/* Any request: the fields left zero are not used. */
struct http_req {
	const char	*method;
	const char	*url;		/* absolute, or below EDGEMU_URL */
	const char	*headers[12];	/* "Name: value" */
	const void	*body;		/* with len; NULL: none */
	size_t		 len;
	int		 noauth;	/* send no Authorization */
	const char	*auth;		/* another token; NULL: the right one */
	/* A body from a callback: read_len bytes, or chunked when -1. */
	size_t		(*read)(char *, size_t, size_t, void *);
	void		*read_arg;
	curl_off_t	 read_len;
	const void	*file;		/* a multipart body: this file */
	size_t		 file_len;
	const char	*file_field;	/* its name; "file" when NULL */
	const char	*field;		/* and a text field... */
	const char	*field_name;	/* ...of this name */
	int		 may_fail;	/* the connection may break */
};

/* Returns curl's result: only may_fail requests may see a failure. */
CURLcode http_send(struct edgemu *, const struct http_req *,
	     struct http_resp *);
/* http_request with extra headers (NULL-terminated). */
void	 http_request_with(struct edgemu *, const char *method,
	     const char *url, const char *const *headers, const void *body,
	     size_t len, const char *auth, struct http_resp *);

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
