/* Tiny PNG images built in memory, for the image sniffing and upload tests. */
#ifndef EDGE_TESTPNG_H
#define EDGE_TESTPNG_H

#include <stddef.h>
#include <stdint.h>

/* The most bytes testpng_make writes. */
#define TESTPNG_MAX	64

/*
 * A PNG of width w and height h into p (TESTPNG_MAX bytes): the signature
 * and IHDR with its CRC, then a stub IDAT and IEND. Returns its length.
 */
size_t	 testpng_make(unsigned char *, uint32_t, uint32_t);

#endif
