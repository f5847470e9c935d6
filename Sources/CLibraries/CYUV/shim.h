#pragma once
// libyuv (Debian's libyuv-dev has no pkg-config file): SIMD colour conversion and scaling.
#include <libyuv.h>

// The conversion matrices are extern constants; Swift can only copy them, not take their address.
static inline const struct YuvConstants *confab_yuv_bt601(void) { return &kYuvI601Constants; }
static inline const struct YuvConstants *confab_yuv_bt709(void) { return &kYuvH709Constants; }
static inline const struct YuvConstants *confab_yuv_full_range(void) { return &kYuvJPEGConstants; }
