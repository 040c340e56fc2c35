/*
 * Stream videos as the other areas see them: the records (video.h), the
 * processing clock (processing.h) and the demo videos (stream_demo.h).
 */
#ifndef EDGEMU_STREAM_H
#define EDGEMU_STREAM_H

#include "processing.h"
#include "stream_demo.h"
#include "video.h"

#endif
