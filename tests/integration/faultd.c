/*
 * faultd: a fault-injecting HTTP/1.1 server on raw sockets, so a reply can
 * break anywhere a real network can. One thread accepts; each connection
 * gets a thread that reads requests (Content-Length or chunked bodies,
 * Expect: 100-continue) and plays the script. Every wait polls a stop
 * pipe too, so faultd_stop ends stalls and idle keep-alive connections.
 */
#include "config.h"

#include <sys/socket.h>
#include <sys/types.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "faultd.h"

#define FAULTD_HEAD_MAX		(64 * 1024)
#define FAULTD_BODY_KEEP	(4 * 1024 * 1024)
#define FAULTD_BLOCK		(64 * 1024)

struct faultd_conn {
	struct faultd	*fd;
	int		 sock;
	int		 id;
	pthread_t	 thread;
	char		 in[FAULTD_HEAD_MAX];
	size_t		 have;
};

struct faultd {
	int			 listen;
	int			 stop[2];
	int			 port;
	char			 url[64];
	pthread_t		 acceptor;
	int			 running;

	pthread_mutex_t		 lock;
	pthread_mutex_t		 handling;	/* one handler call at a time */
	faultd_handler_cb	 handler;
	void			*handler_arg;
	struct faultd_reply	*script;
	size_t			 nscript;
	struct faultd_request	*reqs;
	size_t			 nreqs;
	struct faultd_conn	**conns;
	size_t			 nconns;
};

static void *
faultd_xalloc(void *p, size_t n)
{
	if ((p = realloc(p, n == 0 ? 1 : n)) == NULL)
		abort();
	return (p);
}

static char *
faultd_strndup(const char *s, size_t n)
{
	char	*p = faultd_xalloc(NULL, n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return (p);
}

/*
 * Wait until sock is ready for events; 0, or -1 once stopped or the peer
 * is gone (POLLHUP/POLLERR). timeout in ms, -1 forever.
 */
static int
faultd_wait(struct faultd_conn *c, short events, int timeout)
{
	struct pollfd	pfd[2];
	int		n;

	pfd[0].fd = c->sock;
	pfd[0].events = events;
	pfd[1].fd = c->fd->stop[0];
	pfd[1].events = POLLIN;
	for (;;) {
		pfd[0].revents = pfd[1].revents = 0;
		n = poll(pfd, 2, timeout);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 || pfd[1].revents != 0)
			return (-1);
		if (n == 0)
			return (0);
		if (pfd[0].revents & (POLLERR | POLLNVAL))
			return (-1);
		if ((pfd[0].revents & POLLHUP) && !(events & POLLIN))
			return (-1);
		return (0);
	}
}

/* Write all of data; counts into request slot; 0 or -1. */
static int
faultd_send(struct faultd_conn *c, size_t slot, const void *data, size_t len)
{
	const char	*p = data;
	ssize_t		 n;

	while (len > 0) {
		if (faultd_wait(c, POLLOUT, -1) != 0)
			return (-1);
		n = send(c->sock, p, len, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n == -1 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n <= 0)
			return (-1);
		pthread_mutex_lock(&c->fd->lock);
		c->fd->reqs[slot].sent += (unsigned long long)n;
		pthread_mutex_unlock(&c->fd->lock);
		p += n;
		len -= (size_t)n;
	}
	return (0);
}

/* Read more into c->in; 0, or -1 at the end or when stopped. */
static int
faultd_fill(struct faultd_conn *c)
{
	ssize_t	n;

	if (c->have >= sizeof c->in)
		return (-1);
	for (;;) {
		if (faultd_wait(c, POLLIN, -1) != 0)
			return (-1);
		n = recv(c->sock, c->in + c->have, sizeof c->in - c->have, 0);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			return (-1);
		c->have += (size_t)n;
		return (0);
	}
}

static void
faultd_consume(struct faultd_conn *c, size_t n)
{
	memmove(c->in, c->in + n, c->have - n);
	c->have -= n;
}

/* Bytes of body: keep the first FAULTD_BODY_KEEP. */
static int
faultd_take(struct faultd_conn *c, struct faultd_request *r, size_t want)
{
	size_t	n, keep;

	while (want > 0) {
		if (c->have == 0 && faultd_fill(c) != 0)
			return (-1);
		n = c->have < want ? c->have : want;
		if (r->len < FAULTD_BODY_KEEP) {
			keep = FAULTD_BODY_KEEP - r->len;
			keep = keep < n ? keep : n;
			r->body = faultd_xalloc(r->body, r->len + keep + 1);
			memcpy(r->body + r->len, c->in, keep);
			r->body[r->len + keep] = '\0';
		}
		r->len += n;
		faultd_consume(c, n);
		want -= n;
	}
	return (0);
}

/* One line (without CRLF) of a chunked body into line. */
static int
faultd_line(struct faultd_conn *c, char *line, size_t size)
{
	char	*nl;
	size_t	 n;

	while ((nl = memchr(c->in, '\n', c->have)) == NULL) {
		if (faultd_fill(c) != 0)
			return (-1);
	}
	n = (size_t)(nl - c->in);
	if (n > 0 && c->in[n - 1] == '\r')
		n--;
	if (n >= size)
		return (-1);
	memcpy(line, c->in, n);
	line[n] = '\0';
	faultd_consume(c, (size_t)(nl - c->in) + 1);
	return (0);
}

static int
faultd_chunked(struct faultd_conn *c, struct faultd_request *r)
{
	char		line[128];
	unsigned long	size;

	for (;;) {
		if (faultd_line(c, line, sizeof line) != 0)
			return (-1);
		size = strtoul(line, NULL, 16);
		if (size == 0)
			break;
		if (faultd_take(c, r, size) != 0 ||
		    faultd_line(c, line, sizeof line) != 0)
			return (-1);
	}
	/* Trailers, up to the empty line. */
	do {
		if (faultd_line(c, line, sizeof line) != 0)
			return (-1);
	} while (line[0] != '\0');
	return (0);
}

char *
faultd_header(const struct faultd_request *r, const char *name)
{
	const char	*p = r->headers, *eol, *v;
	size_t		 n = strlen(name);

	while (p != NULL && *p != '\0') {
		eol = strstr(p, "\r\n");
		if (eol == NULL)
			eol = p + strlen(p);
		if (strncasecmp(p, name, n) == 0 && p[n] == ':') {
			for (v = p + n + 1; *v == ' '; v++)
				/* nothing */;
			return (faultd_strndup(v, (size_t)(eol - v)));
		}
		p = *eol != '\0' ? eol + 2 : eol;
	}
	return (NULL);
}

static const char *
faultd_reason(int status)
{
	switch (status) {
	case 200: return ("OK");
	case 201: return ("Created");
	case 204: return ("No Content");
	case 400: return ("Bad Request");
	case 404: return ("Not Found");
	case 408: return ("Request Timeout");
	case 409: return ("Conflict");
	case 410: return ("Gone");
	case 429: return ("Too Many Requests");
	case 500: return ("Internal Server Error");
	case 502: return ("Bad Gateway");
	case 503: return ("Service Unavailable");
	}
	return ("Whatever");
}

/* Read one request head; the slot it was recorded in, or -1. */
static long
faultd_read_request(struct faultd_conn *c, int *keep_alive)
{
	struct faultd		*fd = c->fd;
	struct faultd_request	 r;
	char			*end, *sp, *sp2, *v;
	size_t			 head, slot;
	long			 clen = 0;
	int			 chunked = 0, rc;

	while ((end = memmem(c->in, c->have, "\r\n\r\n", 4)) == NULL) {
		if (faultd_fill(c) != 0)
			return (-1);
	}
	head = (size_t)(end - c->in) + 4;
	memset(&r, 0, sizeof r);
	r.conn = c->id;
	sp = memchr(c->in, ' ', head);
	sp2 = sp == NULL ? NULL :
	    memchr(sp + 1, ' ', head - (size_t)(sp + 1 - c->in));
	if (sp == NULL || sp2 == NULL)
		return (-1);
	r.method = faultd_strndup(c->in, (size_t)(sp - c->in));
	r.path = faultd_strndup(sp + 1, (size_t)(sp2 - sp - 1));
	sp = memchr(c->in, '\n', head);
	r.headers = faultd_strndup(sp + 1, (size_t)(end + 2 - (sp + 1)));
	faultd_consume(c, head);
	if ((v = faultd_header(&r, "Content-Length")) != NULL)
		clen = strtol(v, NULL, 10);
	free(v);
	if ((v = faultd_header(&r, "Transfer-Encoding")) != NULL)
		chunked = strcasecmp(v, "chunked") == 0;
	free(v);
	if ((v = faultd_header(&r, "Connection")) != NULL)
		*keep_alive = strcasecmp(v, "close") != 0;
	free(v);
	if ((v = faultd_header(&r, "Expect")) != NULL &&
	    strcasecmp(v, "100-continue") == 0 && (clen > 0 || chunked)) {
		rc = send(c->sock, "HTTP/1.1 100 Continue\r\n\r\n", 25,
		    MSG_NOSIGNAL);
		(void)rc;
	}
	free(v);
	r.body = faultd_xalloc(NULL, 1);
	r.body[0] = '\0';
	if (chunked)
		rc = faultd_chunked(c, &r);
	else
		rc = faultd_take(c, &r, (size_t)clen);
	pthread_mutex_lock(&fd->lock);
	slot = fd->nreqs++;
	fd->reqs = faultd_xalloc(fd->reqs, fd->nreqs * sizeof *fd->reqs);
	fd->reqs[slot] = r;
	pthread_mutex_unlock(&fd->lock);
	return (rc == 0 ? (long)slot : -1);
}

static int
faultd_send_head(struct faultd_conn *c, size_t slot,
    const struct faultd_reply *p, const char *length)
{
	char	*head;
	int	 rc, n;

	n = asprintf(&head, "HTTP/1.1 %d %s\r\n%s%s%s%s\r\n",
	    p->status != 0 ? p->status : 200,
	    faultd_reason(p->status != 0 ? p->status : 200),
	    length, p->headers != NULL ? p->headers : "",
	    p->close ? "Connection: close\r\n" : "",
	    p->act == FAULTD_HUGE && p->chunked ?
	    "Transfer-Encoding: chunked\r\n" : "");
	if (n < 0)
		abort();
	rc = faultd_send(c, slot, head, (size_t)n);
	free(head);
	return (rc);
}

/* HUGE: a generated body; stops when the client goes. */
static int
faultd_huge(struct faultd_conn *c, size_t slot, const struct faultd_reply *p)
{
	static char		 block[FAULTD_BLOCK];
	unsigned long long	 left = p->huge;
	size_t			 n;
	char			 frame[32];

	memset(block, 'a', sizeof block);
	block[0] = '[';
	while (left > 0) {
		n = left < sizeof block ? (size_t)left : sizeof block;
		if (p->chunked) {
			snprintf(frame, sizeof frame, "%zx\r\n", n);
			if (faultd_send(c, slot, frame, strlen(frame)) != 0)
				return (-1);
		}
		if (faultd_send(c, slot, block, n) != 0 ||
		    (p->chunked && faultd_send(c, slot, "\r\n", 2) != 0))
			return (-1);
		left -= n;
	}
	if (p->chunked && faultd_send(c, slot, "0\r\n\r\n", 5) != 0)
		return (-1);
	return (0);
}

/* Answer request slot; 0 to keep the connection, -1 to close it. */
static int
faultd_answer(struct faultd_conn *c, size_t slot, const struct faultd_reply *p,
    const char *method)
{
	const char	*body = p->body != NULL ? p->body : "";
	size_t		 len = p->len != 0 ? p->len : strlen(body), i;
	char		 length[64];
	char		 byte;
	int		 nobody = strcmp(method, "HEAD") == 0;

	if (p->act == FAULTD_CLOSE)
		return (-1);
	if (p->act == FAULTD_HUGE) {
		length[0] = '\0';
		if (!p->chunked) {
			snprintf(length, sizeof length,
			    "Content-Length: %llu\r\n", p->huge);
		}
		if (faultd_send_head(c, slot, p, length) != 0 ||
		    faultd_huge(c, slot, p) != 0)
			return (-1);
		return (p->close ? -1 : 0);
	}
	snprintf(length, sizeof length, "Content-Length: %zu\r\n", len);
	if (faultd_send_head(c, slot, p, length) != 0)
		return (-1);
	if (nobody)
		return (p->close ? -1 : 0);
	switch (p->act) {
	case FAULTD_CUT:
		faultd_send(c, slot, body, p->cut < len ? p->cut : len);
		return (-1);
	case FAULTD_STALL:
		faultd_send(c, slot, body, p->cut < len ? p->cut : len);
		/* Until the client gives up (or faultd stops). */
		while (faultd_wait(c, POLLIN, -1) == 0 &&
		    recv(c->sock, &byte, 1, 0) > 0)
			/* nothing */;
		return (-1);
	case FAULTD_DRIP:
		for (i = 0; i < len; i++) {
			if (faultd_send(c, slot, body + i, 1) != 0)
				return (-1);
			if (i + 1 < len && faultd_wait(c, 0, p->drip_ms) != 0)
				return (-1);
		}
		break;
	default:
		if (faultd_send(c, slot, body, len) != 0)
			return (-1);
		break;
	}
	return (p->close ? -1 : 0);
}

static const struct faultd_reply faultd_default = {
	.act = FAULTD_REPLY, .status = 200,
	.headers = "Content-Type: application/json\r\n",
	.body = "{\"success\":true,\"errors\":[],\"messages\":[],"
	    "\"result\":null}"
};

/* A request answered by the handler; 0 to keep the connection. */
static int
faultd_handle(struct faultd_conn *c, size_t slot)
{
	struct faultd		*fd = c->fd;
	struct faultd_request	 r;
	struct faultd_reply	 reply;
	char			*owned = NULL;
	int			 rc;

	if (faultd_request(fd, slot, &r) != 0)
		return (-1);
	memset(&reply, 0, sizeof reply);
	pthread_mutex_lock(&fd->handling);
	fd->handler(&r, &reply, &owned, fd->handler_arg);
	pthread_mutex_unlock(&fd->handling);
	rc = faultd_answer(c, slot, &reply, r.method);
	free(owned);
	faultd_request_free(&r);
	return (rc);
}

static void *
faultd_serve(void *arg)
{
	struct faultd_conn	*c = arg;
	struct faultd		*fd = c->fd;
	struct faultd_reply	 reply;
	char			*method;
	long			 slot;
	int			 keep_alive;

	for (;;) {
		keep_alive = 1;
		if ((slot = faultd_read_request(c, &keep_alive)) < 0)
			break;
		if (fd->handler != NULL) {
			if (faultd_handle(c, (size_t)slot) != 0 || !keep_alive)
				break;
			continue;
		}
		pthread_mutex_lock(&fd->lock);
		if (fd->nscript == 0)
			reply = faultd_default;
		else {
			reply = fd->script[(size_t)slot < fd->nscript ?
			    (size_t)slot : fd->nscript - 1];
		}
		method = strdup(fd->reqs[slot].method);
		pthread_mutex_unlock(&fd->lock);
		if (method == NULL)
			abort();
		if (faultd_answer(c, (size_t)slot, &reply, method) != 0 ||
		    !keep_alive) {
			free(method);
			break;
		}
		free(method);
	}
	shutdown(c->sock, SHUT_RDWR);
	close(c->sock);
	c->sock = -1;
	return (NULL);
}

static void *
faultd_accept(void *arg)
{
	struct faultd		*fd = arg;
	struct faultd_conn	*c;
	struct pollfd		 pfd[2];
	int			 s;

	pfd[0].fd = fd->listen;
	pfd[0].events = POLLIN;
	pfd[1].fd = fd->stop[0];
	pfd[1].events = POLLIN;
	for (;;) {
		if (poll(pfd, 2, -1) == -1) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pfd[1].revents != 0)
			break;
		if ((s = accept(fd->listen, NULL, NULL)) == -1)
			continue;
		c = faultd_xalloc(NULL, sizeof *c);
		memset(c, 0, sizeof *c);
		c->fd = fd;
		c->sock = s;
		pthread_mutex_lock(&fd->lock);
		fd->conns = faultd_xalloc(fd->conns, (fd->nconns + 1) *
		    sizeof *fd->conns);
		fd->conns[fd->nconns++] = c;
		c->id = (int)fd->nconns;
		pthread_mutex_unlock(&fd->lock);
		if (pthread_create(&c->thread, NULL, faultd_serve, c) != 0)
			abort();
	}
	return (NULL);
}

/* The socket bound to 127.0.0.1:port (0: any free port), or NULL. */
static struct faultd *
faultd_bind(int port, int reuse)
{
	struct faultd		*fd;
	struct sockaddr_in	 sin;
	socklen_t		 len = sizeof sin;
	int			 one = 1;

	fd = faultd_xalloc(NULL, sizeof *fd);
	memset(fd, 0, sizeof *fd);
	if (pipe(fd->stop) != 0)
		abort();
	pthread_mutex_init(&fd->lock, NULL);
	pthread_mutex_init(&fd->handling, NULL);
	fd->listen = socket(AF_INET, SOCK_STREAM, 0);
	if (reuse)
		setsockopt(fd->listen, SOL_SOCKET, SO_REUSEADDR, &one,
		    sizeof one);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sin.sin_port = htons((unsigned short)port);
	if (fd->listen == -1 ||
	    bind(fd->listen, (struct sockaddr *)&sin, sizeof sin) != 0 ||
	    getsockname(fd->listen, (struct sockaddr *)&sin, &len) != 0) {
		if (fd->listen != -1)
			close(fd->listen);
		close(fd->stop[0]);
		close(fd->stop[1]);
		pthread_mutex_destroy(&fd->lock);
		pthread_mutex_destroy(&fd->handling);
		free(fd);
		return (NULL);
	}
	fd->port = ntohs(sin.sin_port);
	snprintf(fd->url, sizeof fd->url, "http://127.0.0.1:%d", fd->port);
	return (fd);
}

struct faultd *
faultd_start(int port)
{
	struct faultd	*fd;

	if ((fd = faultd_bind(port, 1)) == NULL)
		return (NULL);
	if (faultd_listen(fd) != 0) {
		faultd_free(fd);
		return (NULL);
	}
	return (fd);
}

/*
 * Bound without SO_REUSEADDR, so no other socket can take the port, and
 * not listening, so connections to it are refused.
 */
struct faultd *
faultd_reserve(void)
{
	return (faultd_bind(0, 0));
}

int
faultd_listen(struct faultd *fd)
{
	if (fd->running)
		return (0);
	if (listen(fd->listen, 64) != 0)
		return (-1);
	if (pthread_create(&fd->acceptor, NULL, faultd_accept, fd) != 0)
		abort();
	fd->running = 1;
	return (0);
}

void
faultd_handler(struct faultd *fd, faultd_handler_cb fn, void *arg)
{
	fd->handler_arg = arg;
	fd->handler = fn;
}

void
faultd_script(struct faultd *fd, const struct faultd_reply *replies, size_t n)
{
	pthread_mutex_lock(&fd->lock);
	free(fd->script);
	fd->script = faultd_xalloc(NULL, n * sizeof *replies);
	memcpy(fd->script, replies, n * sizeof *replies);
	fd->nscript = n;
	pthread_mutex_unlock(&fd->lock);
}

int
faultd_port(struct faultd *fd)
{
	return (fd->port);
}

const char *
faultd_url(struct faultd *fd)
{
	return (fd->url);
}

size_t
faultd_count(struct faultd *fd)
{
	size_t	n;

	pthread_mutex_lock(&fd->lock);
	n = fd->nreqs;
	pthread_mutex_unlock(&fd->lock);
	return (n);
}

int
faultd_connections(struct faultd *fd)
{
	int	n;

	pthread_mutex_lock(&fd->lock);
	n = (int)fd->nconns;
	pthread_mutex_unlock(&fd->lock);
	return (n);
}

int
faultd_request(struct faultd *fd, size_t i, struct faultd_request *out)
{
	const struct faultd_request	*r;

	memset(out, 0, sizeof *out);
	pthread_mutex_lock(&fd->lock);
	if (i >= fd->nreqs) {
		pthread_mutex_unlock(&fd->lock);
		return (-1);
	}
	r = &fd->reqs[i];
	*out = *r;
	out->method = strdup(r->method);
	out->path = strdup(r->path);
	out->headers = strdup(r->headers);
	out->body = faultd_xalloc(NULL, (r->len < FAULTD_BODY_KEEP ? r->len :
	    FAULTD_BODY_KEEP) + 1);
	memcpy(out->body, r->body, (r->len < FAULTD_BODY_KEEP ? r->len :
	    FAULTD_BODY_KEEP) + 1);
	pthread_mutex_unlock(&fd->lock);
	return (0);
}

void
faultd_request_free(struct faultd_request *r)
{
	free(r->method);
	free(r->path);
	free(r->headers);
	free(r->body);
	memset(r, 0, sizeof *r);
}

void
faultd_stop(struct faultd *fd)
{
	size_t	i;
	int	rc;

	if (!fd->running) {
		if (fd->listen != -1)
			close(fd->listen);
		fd->listen = -1;
		return;
	}
	fd->running = 0;
	rc = (int)write(fd->stop[1], "x", 1);
	(void)rc;
	pthread_join(fd->acceptor, NULL);
	close(fd->listen);
	fd->listen = -1;
	for (i = 0; i < fd->nconns; i++)
		pthread_join(fd->conns[i]->thread, NULL);
}

void
faultd_free(struct faultd *fd)
{
	size_t	i;

	if (fd == NULL)
		return;
	faultd_stop(fd);
	for (i = 0; i < fd->nconns; i++)
		free(fd->conns[i]);
	free(fd->conns);
	for (i = 0; i < fd->nreqs; i++)
		faultd_request_free(&fd->reqs[i]);
	free(fd->reqs);
	free(fd->script);
	close(fd->stop[0]);
	close(fd->stop[1]);
	pthread_mutex_destroy(&fd->lock);
	pthread_mutex_destroy(&fd->handling);
	free(fd);
}
