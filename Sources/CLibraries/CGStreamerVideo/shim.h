#pragma once
#include <gst/video/video.h>

/// Asks the encoder upstream of `element` for a keyframe now (someone just started watching).
static inline void confab_request_keyframe(GstElement *element) {
    gst_element_send_event(element, gst_video_event_new_upstream_force_key_unit(GST_CLOCK_TIME_NONE, TRUE, 0));
}
