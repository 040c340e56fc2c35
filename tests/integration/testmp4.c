/* MP4 files for upload tests: real boxes, then media that never repeats. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <setjmp.h>
#include <cmocka.h>

#include "buf.h"
#include "media.h"
#include "testmp4.h"

void
testmp4_write(const char *path, uint64_t duration_ms, size_t mdat_len,
    uint64_t seed)
{
	struct buf	 b = BUF_INITIALIZER;
	unsigned char	 block[65536];
	uint64_t	 x = seed | 1;
	size_t		 done, n, i;
	FILE		*fp;

	media_mp4(&b, 1000, duration_ms, 640, 360, mdat_len);
	assert_non_null(fp = fopen(path, "wb"));
	assert_int_equal(fwrite(b.data, 1, b.len, fp), b.len);
	for (done = 0; done < mdat_len; done += n) {
		n = mdat_len - done < sizeof block ? mdat_len - done :
		    sizeof block;
		for (i = 0; i < n; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			block[i] = (unsigned char)x;
		}
		assert_int_equal(fwrite(block, 1, n, fp), n);
	}
	assert_int_equal(fclose(fp), 0);
	buf_free(&b);
}
