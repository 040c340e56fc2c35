/*
 * A transfer as the jobs (transfers.c) keep it and the tray (tray.c)
 * shows and acts on it; private to the two.
 */
#ifndef EDGE_XFER_H
#define EDGE_XFER_H

#include <stddef.h>

#include "http.h"
#include "transfers.h"
#include "tusc.h"
#include "xferrate.h"

struct jobs;
struct tui;
struct tui_req;

struct xfer {
	enum xfer_kind		 kind;
	enum xfer_state		 state;
	char			*title;		/* the video's name, a file's */
	char			*uid;		/* the video, once known */
	char			*url;		/* a download's, when ready */
	char			*error;
	char			*phase;		/* the server's state */
	long long		 done;
	long long		 total;
	double			 pct;		/* processing, downloads */
	const char		*dl_type;	/* downloads: default, audio */
	char			*dl_path;	/* downloads: what is polled */
	struct xferrate		 xr;		/* this run's rate */
	double			 rate;		/* bytes per second */
	unsigned long		 job;
	struct tui_req		*req;

	/* Uploads: what the thread owns while it runs. */
	char			*file;
	char			*name;
	char			*creator;
	int			 require_signed;
	char			*state_dir;
	struct http_client	*http;
	struct tusc_options	 opts;
	struct tusc_result	 res;
	unsigned long		 run_id;	/* set by the thread */
	char			*notice;	/* the thread's, swapped atomically */
	char			*note;		/* shown on the row while running */
	int			 stop;		/* d: the thread ends at once */
	double			 posted;	/* the thread's last report */
	long long		 done_sent;	/* and what it said */
	long long		 total_sent;
	struct jobs		*jobs;
};

void	 xfer_free(struct xfer *);
/* Start (or resume, or retry) an upload on the worker. */
void	 xfer_upload_start(struct tui *, struct xfer *);
int	 xfer_percent(const struct xfer *);
/* "94.4 MB" */
void	 xfer_size(char *, size_t, double);

#endif
