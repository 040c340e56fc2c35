/*
 * edgemu: a local implementation of the v4 API for Stream, API Shield and
 * rate limits, so the console and every test run offline.
 */
#include "config.h"

#include <sys/resource.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "demo.h"
#include "expr.h"
#include "log.h"
#include "server.h"
#include "store.h"
#include "util.h"
#include "xmalloc.h"

#define UPLOAD_RATE_MAX	1000000000000LL	/* a terabyte a second */
#define CONNECTIONS_MIN	16
#define CONNECTIONS_MAX	65536
/* Descriptors besides connections: the store's per thread, logs, pipes. */
#define FD_RESERVE	128

static __dead void
usage(int status)
{
	FILE	*f = status == 0 ? stdout : stderr;

	fprintf(f,
"usage: edgemu [--listen ADDR:PORT] [--data DIR] [--token TOKEN]\n"
"              [--token-file FILE] [--demo-data] [--demo-videos N]\n"
"              [--processing-seconds N]\n"
"              [--ready-file PATH] [--threads N] [--legacy-gone]\n"
"              [--upload-rate BYTES] [--max-connections N] [--plan NAME]\n"
"              [--no-schema-validation-api] [-v] [--version]\n"
"\n"
"A local implementation of the Cloudflare v4 API subset that edgetui uses\n"
"(Stream, API Shield, rate limits and rules), stored in SQLite under --data.\n"
"\n"
"  --listen ADDR:PORT       where to listen (default 127.0.0.1:8787; port 0\n"
"                           picks a free port; [::1]:PORT for IPv6)\n"
"  --data DIR               the store (default $XDG_DATA_HOME/edgemu)\n"
"  --token TOKEN            the API token clients must send (visible to ps:\n"
"                           prefer --token-file or EDGEMU_TOKEN)\n"
"  --token-file FILE        read the token from the first line of FILE\n"
"  --demo-data              seed a demo account and zone (once per store)\n"
"  --demo-videos N          give the demo account N more ready videos, for\n"
"                           large lists (once per store; up to 10000000)\n"
"  --processing-seconds N   how long video processing takes (default 5)\n"
"  --ready-file PATH        also write the start-up lines to PATH (0600)\n"
"  --threads N              request threads (default 2)\n"
"  --legacy-gone            answer every legacy rate-limit route with\n"
"                           410 Gone, as the cloud now does\n"
"  --upload-rate BYTES      read each tus PATCH body at most BYTES a second\n"
"                           (default: no cap), so an upload can be cut\n"
"                           midway on purpose\n"
"  --max-connections N      connections open at once (default 1024, 16 to\n"
"                           65536); more wait to be accepted\n"
"  --no-schema-validation-api\n"
"                           answer the current Schema Validation API\n"
"                           (/schema_validation/...) with 404, as a server\n"
"                           with only the classic API does\n"
"  --plan NAME              the zone plan whose rate limiting rule limits\n"
"                           apply, and the demo data keeps to: free, pro,\n"
"                           business or enterprise (default)\n"
"  -v, --verbose            log every request to stderr (a tus request\n"
"                           with the Upload-Offset sent and answered)\n"
"\n"
"Once it accepts connections it prints EDGEMU_URL=..., EDGEMU_TOKEN=...\n"
"(and EDGEMU_ACCOUNT=..., EDGEMU_ZONE=... with --demo-data or --demo-videos).\n");
	exit(status);
}

static int
parse_listen(const char *s, char **addr, int *port)
{
	const char	*colon, *ps;
	char		*end;
	long		 p;

	if (s[0] == '[') {
		if ((colon = strstr(s, "]:")) == NULL)
			return (-1);
		*addr = xstrndup(s + 1, (size_t)(colon - s - 1));
		ps = colon + 2;
	} else if ((colon = strrchr(s, ':')) != NULL) {
		*addr = colon == s ? xstrdup("127.0.0.1") :
		    xstrndup(s, (size_t)(colon - s));
		ps = colon + 1;
	} else {
		*addr = xstrdup("127.0.0.1");
		ps = s;
	}
	errno = 0;
	p = strtol(ps, &end, 10);
	if (*ps == '\0' || *end != '\0' || errno != 0 || p < 0 || p > 65535) {
		free(*addr);
		*addr = NULL;
		return (-1);
	}
	*port = (int)p;
	return (0);
}

static char *
read_token_file(const char *path)
{
	FILE	*f;
	char	 line[1024];
	size_t	 n;

	if ((f = fopen(path, "r")) == NULL) {
		fprintf(stderr, "edgemu: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	if (fgets(line, sizeof line, f) == NULL)
		line[0] = '\0';
	fclose(f);
	n = strcspn(line, "\r\n");
	line[n] = '\0';
	if (n == 0) {
		fprintf(stderr, "edgemu: %s: the file holds no token\n", path);
		exit(2);
	}
	return (xstrdup(line));
}

static char *
default_data_dir(void)
{
	const char	*xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	char		*parent;

	if (xdg != NULL && *xdg == '/')
		return (xprintf("%s/edgemu", xdg));
	if (home == NULL || *home == '\0')
		return (xstrdup("edgemu-data"));
	parent = xprintf("%s/.local/share", home);
	if (mkdir(parent, 0700) != 0 && errno != EEXIST) {
		/* $HOME/.local may be missing too: make both. */
		char *local = xprintf("%s/.local", home);

		mkdir(local, 0700);
		mkdir(parent, 0700);
		free(local);
	}
	free(parent);
	return (xprintf("%s/.local/share/edgemu", home));
}

/*
 * Every connection is a descriptor: raise the soft limit to fit them, or
 * take fewer connections than asked when the hard limit is lower, rather
 * than fail to open the store in the middle of a request.
 */
static unsigned int
fit_fd_limit(unsigned int conns)
{
	struct rlimit	rl;
	rlim_t		want = (rlim_t)conns + FD_RESERVE;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur >= want)
		return (conns);
	rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= want ?
	    want : rl.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &rl) != 0 && getrlimit(RLIMIT_NOFILE,
	    &rl) != 0)
		return (conns);
	if (rl.rlim_cur >= want)
		return (conns);
	conns = rl.rlim_cur > FD_RESERVE + CONNECTIONS_MIN ?
	    (unsigned int)(rl.rlim_cur - FD_RESERVE) : CONNECTIONS_MIN;
	log_warn("the descriptor limit is %llu: taking at most %u "
	    "connections", (unsigned long long)rl.rlim_cur, conns);
	return (conns);
}

/* Written whole and renamed into place, so a reader never sees half. */
static int
write_ready_file(const char *path, const char *text)
{
	char	*tmp = xprintf("%s.tmp.%ld", path, (long)getpid());
	int	 fd;
	size_t	 len = strlen(text);
	ssize_t	 w;

	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd == -1)
		goto fail;
	w = write(fd, text, len);
	if (w < 0 || (size_t)w != len || fsync(fd) != 0) {
		close(fd);
		unlink(tmp);
		goto fail;
	}
	close(fd);
	if (rename(tmp, path) != 0) {
		unlink(tmp);
		goto fail;
	}
	free(tmp);
	return (0);
fail:
	fprintf(stderr, "edgemu: %s: %s\n", path, strerror(errno));
	free(tmp);
	return (-1);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "listen", required_argument, NULL, 'l' },
		{ "data", required_argument, NULL, 'd' },
		{ "token", required_argument, NULL, 't' },
		{ "token-file", required_argument, NULL, 'T' },
		{ "demo-data", no_argument, NULL, 'D' },
		{ "demo-videos", required_argument, NULL, 'M' },
		{ "processing-seconds", required_argument, NULL, 'P' },
		{ "ready-file", required_argument, NULL, 'r' },
		{ "threads", required_argument, NULL, 'j' },
		{ "legacy-gone", no_argument, NULL, 'G' },
		{ "no-schema-validation-api", no_argument, NULL, 'S' },
		{ "upload-rate", required_argument, NULL, 'R' },
		{ "max-connections", required_argument, NULL, 'C' },
		{ "plan", required_argument, NULL, 'p' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct server_options	 opts;
	struct server		*srv = NULL;
	struct store		*store = NULL;
	const char		*schemas[16], *ready_file = NULL;
	const char		*env;
	char			*addr = NULL, *data = NULL, *token = NULL;
	char			*cause = NULL, *end;
	struct buf		 ready = BUF_INITIALIZER;
	sigset_t		 set;
	size_t			 i, n = 0;
	int			 ch, demo = 0, sig, port = 8787, status;
	long			 v, demo_videos = 0;
	enum expr_plan		 plan;
	unsigned char		 rnd[20];
	char			 hex[41];

	memset(&opts, 0, sizeof opts);
	opts.processing_seconds = 5;
	opts.threads = 2;
	opts.max_connections = SERVER_MAX_CONNECTIONS;
	opts.plan = EXPR_PLAN_ENTERPRISE;
	/* The store (database, uploads) is private: files 0600, dirs 0700. */
	umask(077);
	log_set_sink(log_sink_stderr, (void *)"edgemu");
	log_set_level(LOG_LEVEL_INFO);

	while ((ch = getopt_long(argc, argv, "hv", longopts, NULL)) != -1) {
		switch (ch) {
		case 'l':
			free(addr);
			if (parse_listen(optarg, &addr, &port) != 0) {
				fprintf(stderr, "edgemu: --listen %s: expected "
				    "ADDR:PORT with a port from 0 to 65535\n",
				    optarg);
				status = 2;
				goto out;
			}
			break;
		case 'd':
			free(data);
			data = xstrdup(optarg);
			break;
		case 't':
			free(token);
			token = xstrdup(optarg);
			/* Keep it out of ps where the system allows. */
			explicit_bzero(optarg, strlen(optarg));
			break;
		case 'T':
			free(token);
			token = read_token_file(optarg);
			break;
		case 'D':
			demo = 1;
			break;
		case 'M':
			errno = 0;
			demo_videos = strtol(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0' || errno != 0 ||
			    demo_videos < 1 || demo_videos > DEMO_VIDEOS_MAX) {
				fprintf(stderr, "edgemu: --demo-videos %s: "
				    "expected a number from 1 to %d\n", optarg,
				    DEMO_VIDEOS_MAX);
				status = 2;
				goto out;
			}
			break;
		case 'P':
		case 'j':
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0' || errno != 0 ||
			    v < (ch == 'P' ? 0 : 1) || v > (ch == 'P' ? 3600 : 64)) {
				fprintf(stderr, "edgemu: %s %s: expected a "
				    "number from %d to %d\n", ch == 'P' ?
				    "--processing-seconds" : "--threads", optarg,
				    ch == 'P' ? 0 : 1, ch == 'P' ? 3600 : 64);
				status = 2;
				goto out;
			}
			if (ch == 'P')
				opts.processing_seconds = (int)v;
			else
				opts.threads = (int)v;
			break;
		case 'r':
			ready_file = optarg;
			break;
		case 'G':
			opts.legacy_gone = 1;
			break;
		case 'S':
			opts.no_sv_api = 1;
			break;
		case 'R':
			errno = 0;
			opts.upload_rate = strtoll(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0' || errno != 0 ||
			    opts.upload_rate < 0 ||
			    opts.upload_rate > UPLOAD_RATE_MAX) {
				fprintf(stderr, "edgemu: --upload-rate %s: "
				    "expected bytes a second, from 0 (no cap) "
				    "to %lld\n", optarg, UPLOAD_RATE_MAX);
				status = 2;
				goto out;
			}
			break;
		case 'C':
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0' || errno != 0 ||
			    v < CONNECTIONS_MIN || v > CONNECTIONS_MAX) {
				fprintf(stderr, "edgemu: --max-connections %s: "
				    "expected a number from %d to %d\n", optarg,
				    CONNECTIONS_MIN, CONNECTIONS_MAX);
				status = 2;
				goto out;
			}
			opts.max_connections = (unsigned int)v;
			break;
		case 'p':
			if (expr_plan_parse(optarg, &plan) != 0) {
				fprintf(stderr, "edgemu: --plan %s: expected "
				    "free, pro, business or enterprise\n",
				    optarg);
				status = 2;
				goto out;
			}
			opts.plan = (int)plan;
			break;
		case 'v':
			opts.verbose = 1;
			break;
		case 'V':
			printf("edgemu %s\n", PACKAGE_VERSION);
			status = 0;
			goto out;
		case 'h':
			usage(0);
		default:
			usage(2);
		}
	}
	if (optind != argc)
		usage(2);

	if (token == NULL && (env = getenv("EDGEMU_TOKEN")) != NULL &&
	    *env != '\0')
		token = xstrdup(env);
	if (token == NULL) {
		util_random_bytes(rnd, sizeof rnd);
		util_hex(rnd, sizeof rnd, hex);
		token = xstrdup(hex);
	}
	if (strspn(token, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789-_.~+/=") != strlen(token)) {
		fprintf(stderr, "edgemu: the token may hold only letters, "
		    "digits and -_.~+/=\n");
		status = 2;
		goto out;
	}
	if (addr == NULL)
		addr = xstrdup("127.0.0.1");
	if (data == NULL)
		data = default_data_dir();
	opts.listen_addr = addr;
	opts.areas = server_areas;
	opts.port = port;
	opts.max_connections = fit_fd_limit(opts.max_connections);
	opts.token = token;

	/* Signals are taken by sigwait below, never by the server threads. */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);

	for (i = 0; server_areas[i] != NULL && n < nitems(schemas) - 1; i++) {
		if (server_areas[i]->schema != NULL)
			schemas[n++] = server_areas[i]->schema;
	}
	schemas[n] = NULL;
	status = 1;
	if ((store = store_open(data, schemas, &cause)) == NULL) {
		fprintf(stderr, "edgemu: cannot open the store: %s\n", cause);
		goto out;
	}
	if ((demo && demo_seed(store, opts.plan, &cause) != 0) ||
	    (demo_videos > 0 &&
	    demo_videos_seed(store, demo_videos, &cause) != 0)) {
		fprintf(stderr, "edgemu: %s\n", cause);
		goto out;
	}
	if ((srv = server_start(&opts, store, &cause)) == NULL) {
		fprintf(stderr, "edgemu: %s\n", cause);
		goto out;
	}

	buf_addf(&ready, "EDGEMU_URL=%s\nEDGEMU_TOKEN=%s\n",
	    server_base_url(srv), token);
	if (demo || demo_videos > 0)
		buf_addf(&ready, "EDGEMU_ACCOUNT=%s\nEDGEMU_ZONE=%s\n",
		    DEMO_ACCOUNT, DEMO_ZONE);
	/* The file first: whoever has read stdout may rely on it. */
	if (ready_file != NULL && write_ready_file(ready_file,
	    buf_str(&ready)) != 0)
		goto out;
	fputs(buf_str(&ready), stdout);
	fflush(stdout);
	log_info("serving %s from %s", server_base_url(srv), data);

	for (;;) {
		if (sigwait(&set, &sig) != 0)
			continue;
		if (sig == SIGINT || sig == SIGTERM)
			break;
	}
	log_info("stopping (%s)", strsignal(sig));
	status = 0;

out:
	server_stop(srv);
	store_close(store);
	if (token != NULL)
		explicit_bzero(token, strlen(token));
	if (ready.data != NULL)
		explicit_bzero(ready.data, ready.len);
	buf_free(&ready);
	free(cause);
	free(token);
	free(addr);
	free(data);
	return (status);
}
