/*
 * Direct creator uploads (one-time URLs, one multipart POST): their limits,
 * exposed for tests.
 */
#ifndef EDGEMU_DIRECT_H
#define EDGEMU_DIRECT_H

#define DIRECT_UPLOAD_MAX	209715200ULL	/* basic uploads: 200 MiB */

#endif
