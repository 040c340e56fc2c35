/*
 * A loopback origin for the e2e tests of uploads from a URL: serves one
 * file (HEAD and GET, whatever the path) on 127.0.0.1, prints its port,
 * and ends when the test that started it does (or after ten minutes).
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "faultd.h"

#define ORIGIN_LIFETIME	600	/* seconds */

int
main(int argc, char **argv)
{
	struct faultd_reply	 r;
	struct faultd		*fd;
	struct timespec		 tick = { 0, 100 * 1000 * 1000 };
	char			*data = NULL;
	size_t			 len = 0, cap = 0, n;
	pid_t			 parent = getppid();
	time_t			 end = time(NULL) + ORIGIN_LIFETIME;
	FILE			*f;

	if (argc != 2) {
		fprintf(stderr, "usage: e2e-origin FILE\n");
		return (2);
	}
	if ((f = fopen(argv[1], "rb")) == NULL) {
		perror(argv[1]);
		return (1);
	}
	for (;;) {
		if (len == cap && (data = realloc(data, cap = cap * 2 +
		    65536)) == NULL)
			return (1);
		if ((n = fread(data + len, 1, cap - len, f)) == 0)
			break;
		len += n;
	}
	fclose(f);
	signal(SIGPIPE, SIG_IGN);
	if ((fd = faultd_start(0)) == NULL) {
		fprintf(stderr, "e2e-origin: cannot listen\n");
		return (1);
	}
	memset(&r, 0, sizeof r);
	r.headers = "Content-Type: video/mp4\r\n";
	r.body = data;
	r.len = len;
	faultd_script(fd, &r, 1);
	printf("%d\n", faultd_port(fd));
	fflush(stdout);
	while (getppid() == parent && time(NULL) < end)
		nanosleep(&tick, NULL);
	faultd_free(fd);
	free(data);
	return (0);
}
