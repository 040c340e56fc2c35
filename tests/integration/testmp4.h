/* MP4 files for upload tests: real boxes, then media that never repeats. */
#ifndef EDGE_TESTMP4_H
#define EDGE_TESTMP4_H

#include <stddef.h>
#include <stdint.h>

/*
 * Writes path: a valid MP4 of duration_ms (640x360) whose mdat holds
 * mdat_len bytes of xorshift noise from seed, so that a misplaced chunk
 * cannot compare equal. Fails the test on error.
 */
void	 testmp4_write(const char *, uint64_t, size_t, uint64_t);

#endif
