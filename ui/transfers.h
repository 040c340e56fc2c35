/*
 * The transfers: uploads (TUS, resumable across sessions), MP4 download
 * requests and processing watches, each a job of the worker that keeps
 * running while the user works in other panels; the tray (ui/tray.h)
 * shows them.
 */
#ifndef EDGE_TRANSFERS_H
#define EDGE_TRANSFERS_H

#include "buf.h"
#include "jobs.h"
#include "tusc.h"

struct tui;
struct tui_req;

enum xfer_kind {
	XFER_UPLOAD,
	XFER_DOWNLOAD,
	XFER_PROCESSING
};

enum xfer_state {
	XFER_PAUSED,		/* an unfinished upload from an earlier run */
	XFER_RUNNING,
	XFER_DONE,
	XFER_FAILED,
	XFER_CANCELLED
};

/* What an upload sends besides the file. */
struct xfer_upload_opts {
	const char	*name;
	const char	*creator;
	int		 require_signed;
};

/* Load the unfinished uploads of this server and account (paused). */
void	 transfers_init(struct tui *);
/* Cancel what runs (uploads stay in the resume journal) and free. */
void	 transfers_free(struct tui *);

/* Start; each reports in the status line when it ends. */
void	 transfers_upload(struct tui *, const char *,
	     const struct xfer_upload_opts *);
/*
 * A video's download: its uid, its name for the tray's row, and the type
 * (default: the MP4, audio: the M4A; NULL is default).
 */
void	 transfers_download(struct tui *, const char *, const char *,
	     const char *);
/* Watch a video's processing in the tray (a copy from a URL) until final. */
void	 transfers_watch(struct tui *, const char *, const char *);

/* An event of a transfer's job; 1 if it redrew something visible. */
int	 transfers_event(struct tui *, struct tui_req *, struct jobs_event *);
/* "↑1 45% 12.0 MB/s" for the header, or nothing when idle. */
void	 transfers_summary(struct tui *, struct buf *);
size_t	 transfers_paused(struct tui *);
/* Running uploads and downloads, and "1 upload at 18%" into buf. */
size_t	 transfers_unfinished(struct tui *, struct buf *);
/* 1 while this session uploads the video with this uid. */
int	 transfers_uploading(struct tui *, const char *);

#endif
